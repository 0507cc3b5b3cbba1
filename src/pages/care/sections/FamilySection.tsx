import { useCustom } from "@refinedev/core";
import {
  Alert,
  App,
  Button,
  Checkbox,
  Descriptions,
  Form,
  Input,
  Modal,
  Progress,
  Radio,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { translate as t } from "../../../i18n";
import { accountsResource } from "../../../resources/accounts";
import { linesResource, type Line } from "../../../resources/lines";
import type { AccountMember, MemberRole } from "../../../resources/accountMembers";
import type { Subscriber } from "../../../resources/subscribers";
import type { AccountMeters } from "../../../resources/usage";
import type { ApiError } from "../../../providers/apiClient";
import { PROBLEM_TYPES } from "../../../resources/api";
import { formatDataMb, formatDate, formatMsisdn } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { RecordActions } from "../../../components/actions/RecordActions";
import { useResourceAction } from "../../../components/actions/useResourceAction";
import { VerifyCallerFirst } from "./CallerVerification";
import { useAccountLineIds } from "./useAccountLineIds";

type AccountRecord = Subscriber & Record<string, unknown>;
type MeterLine = AccountMeters["lines"][number];

/** What a family line is asked most for on a call: its monthly data limit; the rest wait under "More actions". */
const FAMILY_LINE_ACTIONS = ["set-cap"] as const;

const notVerified = (error: unknown) => (error as ApiError | null)?.problemType === PROBLEM_TYPES.callerNotVerified;

/** The reason staff give for acting on the holder's behalf (kept in the audit trail), as in every action dialog. */
function ReasonItem() {
  return (
    <Form.Item
      name="reason"
      label={t("actions.reason")}
      extra={t("actions.reasonHelp")}
      rules={[{ required: true, whitespace: true, min: 3, message: t("actions.reasonRequired") }]}
    >
      <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={500} showCount />
    </Form.Item>
  );
}

/**
 * The shared data of the account in this cycle: used of the allowance (a bar), what is left, and
 * whether it is used up. Nothing when no line of the account is on a shared plan.
 */
function PoolSummary({ pool }: { pool: NonNullable<AccountMeters["pool"]> }) {
  const percent = pool.allowance ? Math.min(100, Math.round((pool.used / pool.allowance) * 100)) : 0;
  return (
    <div data-testid="family-pool" style={{ maxWidth: 480 }}>
      <Typography.Text strong>{t("care.family.pool", { plan: pool.planName })}</Typography.Text>
      <div data-testid="family-pool-used">
        {pool.allowance === null
          ? t("usage.meter.usedUnlimited", { used: formatDataMb(pool.used) })
          : t("usage.meter.usedOf", { used: formatDataMb(pool.used), allowance: formatDataMb(pool.allowance) })}
        {pool.left !== null && ` · ${t("usage.meter.left", { left: formatDataMb(pool.left) })}`}
      </div>
      {pool.allowance !== null && (
        <Progress
          percent={percent}
          size="small"
          showInfo={false}
          status={pool.usedUp ? "exception" : "normal"}
          aria-label={t("care.family.poolBar")}
        />
      )}
      <Typography.Text type="secondary">
        {t("care.family.cycle", { start: formatDate(pool.cycleStart), end: formatDate(pool.cycleEnd) })}
      </Typography.Text>
      {pool.usedUp && <Alert type="warning" showIcon message={t("usage.pool.usedUp")} style={{ marginTop: 8 }} />}
    </div>
  );
}

/** Invite a person for the holder (`invite-member`, the declared action: staff give a reason). */
function InviteMember({ account, lines }: { account: AccountRecord; lines: Line[] }) {
  const invite = useResourceAction(accountsResource, "invite-member", account);
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ email: string; role: MemberRole; lineIds?: string[]; reason?: string }>();
  const role = Form.useWatch("role", form);
  if (!invite.available) return null;

  const close = () => {
    form.resetFields();
    invite.reset();
    setOpen(false);
  };

  async function submit() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await invite.run(
        {
          email: values.email,
          role: values.role,
          lineIds: values.role === "member" ? (values.lineIds ?? []) : [],
          reason: values.reason,
        },
        { form, fieldNames: { lineIds: "lineIds" } },
      );
      void message.success(t("care.family.invited", { email: values.email }));
      close();
    } catch {
      // The hook put the server's words at the fields they name, or above the form.
    }
  }

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="family-invite">
        {invite.label}
      </Button>
      <Modal
        open={open}
        title={t("people.inviteTitle")}
        okText={t("people.send")}
        okButtonProps={{ loading: invite.running }}
        cancelText={t("form.cancel")}
        onCancel={close}
        onOk={() => void submit()}
        destroyOnHidden
      >
        {invite.problem && (
          <Alert type="error" showIcon message={invite.problem} role="alert" style={{ marginBottom: 12 }} />
        )}
        <Form
          form={form}
          name={`invite-member-${account.id}`}
          layout="vertical"
          noValidate
          initialValues={{ role: "member", lineIds: [] }}
        >
          <Form.Item
            name="email"
            label={t("fields.memberEmail")}
            rules={[{ required: true, type: "email", message: t("validation.email") }]}
          >
            <Input type="email" autoComplete="off" />
          </Form.Item>
          <Form.Item name="role" label={t("fields.memberRole")}>
            <Radio.Group style={{ display: "flex", flexDirection: "column", gap: 8 }}>
              <Radio value="member">{t("enums.memberRole.member")}</Radio>
              <Radio value="manager">{t("enums.memberRole.manager")}</Radio>
            </Radio.Group>
          </Form.Item>
          {role !== "manager" && (
            <Form.Item
              name="lineIds"
              label={t("people.whichLines")}
              rules={[{ required: true, type: "array", min: 1, message: t("validation.memberLines") }]}
            >
              <Checkbox.Group style={{ display: "flex", flexDirection: "column", gap: 8 }}>
                {lines.map((line) => (
                  <Checkbox key={line.id} value={line.id}>
                    {formatMsisdn(line.msisdn)}
                  </Checkbox>
                ))}
              </Checkbox.Group>
            </Form.Item>
          )}
          {invite.needsReason && <ReasonItem />}
        </Form>
      </Modal>
    </>
  );
}

/** Remove a person, or withdraw their invitation, for the holder (`remove-member`: staff give a reason). */
function RemoveMember({ account, person }: { account: AccountRecord; person: AccountMember }) {
  const remove = useResourceAction(accountsResource, "remove-member", account);
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason?: string }>();
  if (!remove.available) return null;
  const label = person.status === "active" ? t("people.remove") : t("people.withdraw");

  const close = () => {
    form.resetFields();
    remove.reset();
    setOpen(false);
  };

  async function submit() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await remove.run({ memberId: person.id, reason: values.reason }, { form });
      void message.success(t("people.removed", { email: person.email }));
      close();
    } catch {
      // The hook put the server's words at the reason, or above the form.
    }
  }

  return (
    <>
      <Button
        danger
        size="small"
        onClick={() => setOpen(true)}
        aria-label={t("people.removeTitle", { email: person.email })}
      >
        {label}
      </Button>
      <Modal
        open={open}
        title={t("people.removeTitle", { email: person.email })}
        okText={label}
        okButtonProps={{ danger: true, loading: remove.running }}
        cancelText={t("people.keep")}
        onCancel={close}
        onOk={() => void submit()}
        destroyOnHidden
      >
        <Typography.Paragraph>{t("care.family.removeConfirm")}</Typography.Paragraph>
        {remove.problem && (
          <Alert type="error" showIcon message={remove.problem} role="alert" style={{ marginBottom: 12 }} />
        )}
        <Form form={form} name={`remove-member-${person.id}`} layout="vertical" noValidate>
          {remove.needsReason && <ReasonItem />}
        </Form>
      </Modal>
    </>
  );
}

/**
 * The family on the 360 (issue 28 item 7): the account's holder, the people on it (members and
 * managers, invited or active, with their lines), its lines with their plan, data this cycle and
 * monthly limit, and the shared data pool when the account has one. The agent invites and removes
 * people and sets limits for the holder through the declared actions, with a reason; the lines'
 * other actions (whatever the lines declare) wait under "More actions".
 */
export function FamilySection({ subscriber }: { subscriber: Subscriber }) {
  const account = subscriber as AccountRecord;
  const members = useCustom<{ data: AccountMember[] }>({ url: `/accounts/${subscriber.id}/members`, method: "get" });
  const meters = useCustom<AccountMeters>({ url: `/accounts/${subscriber.id}/meters`, method: "get" });
  const lines = useAccountLineIds(subscriber);
  const queries = [members.query, meters.query];
  if (queries.some((q) => notVerified(q.error))) return <VerifyCallerFirst />;
  if (queries.some((q) => q.isError))
    return <Typography.Text type="danger">{t("care.sections.failed")}</Typography.Text>;

  const people = members.query.isSuccess ? members.result.data.data : [];
  const accountMeters = meters.query.isSuccess ? meters.result.data : null;
  const meterOf = new Map<string, MeterLine>(accountMeters?.lines.map((l) => [l.lineId, l]) ?? []);
  // Who uses each line: the members it is assigned to (a manager has every line, so is not named on one).
  const usersOf = (lineId: string) =>
    people.filter((p) => p.role === "member" && p.lines.some((l) => l.id === lineId)).map((p) => p.email);

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }} data-testid="family-section">
      <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
        <Descriptions.Item label={t("care.family.holder")}>
          <span data-testid="family-holder" style={{ overflowWrap: "anywhere" }}>
            {subscriber.name}
            {subscriber.email ? ` · ${subscriber.email}` : ""}
          </span>
        </Descriptions.Item>
      </Descriptions>

      <Space wrap style={{ justifyContent: "space-between", width: "100%" }}>
        <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
          {t("care.family.people")}
        </Typography.Title>
        <InviteMember account={account} lines={lines.lines} />
      </Space>
      <Table<AccountMember>
        rowKey="id"
        size="small"
        data-testid="family-members"
        loading={members.query.isLoading}
        dataSource={people}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: t("care.family.noPeople") }}
        columns={[
          {
            title: t("care.family.person"),
            dataIndex: "email",
            render: (email: string) => <Typography.Text strong>{email}</Typography.Text>,
          },
          {
            title: t("care.family.role"),
            dataIndex: "role",
            render: (role: MemberRole) => <span data-testid="family-member-role">{t(`people.role.${role}`)}</span>,
          },
          {
            title: t("fields.status"),
            dataIndex: "status",
            render: (_: unknown, person) =>
              person.status === "active" ? (
                <StatusTag tone="good">{t("people.joined")}</StatusTag>
              ) : (
                <StatusTag tone="waiting">
                  {t("people.invitedUntil", { date: formatDate(person.expiresAt!.slice(0, 10)) })}
                </StatusTag>
              ),
          },
          {
            title: t("care.family.theirLines"),
            key: "lines",
            render: (_: unknown, person) => (
              <span data-testid="family-member-lines">
                {person.role === "manager"
                  ? t("care.family.allLines")
                  : person.lines.map((line) => formatMsisdn(line.msisdn)).join(", ") || "—"}
              </span>
            ),
          },
          {
            title: t("list.actions"),
            key: "actions",
            render: (_: unknown, person) => <RemoveMember account={account} person={person} />,
          },
        ]}
      />

      <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
        {t("care.family.lines")}
      </Typography.Title>
      {accountMeters?.pool ? (
        <PoolSummary pool={accountMeters.pool} />
      ) : (
        accountMeters && <Typography.Text type="secondary">{t("care.family.noPool")}</Typography.Text>
      )}
      <Table<Line>
        rowKey="id"
        size="small"
        data-testid="family-lines"
        loading={!lines.ready}
        dataSource={lines.lines}
        pagination={false}
        scroll={{ x: "max-content" }}
        columns={[
          {
            title: t("fields.msisdn"),
            dataIndex: "msisdn",
            render: (msisdn: string) => <Typography.Text strong>{formatMsisdn(msisdn)}</Typography.Text>,
          },
          { title: t("fields.plan"), dataIndex: "planName" },
          {
            title: t("fields.status"),
            dataIndex: "status",
            render: (status: string) => (
              <StatusTag tone={toneOfStatus(status)}>{t(`enums.status.${status}`)}</StatusTag>
            ),
          },
          {
            title: t("care.family.usedBy"),
            key: "usedBy",
            render: (_: unknown, line) => usersOf(line.id).join(", ") || "—",
          },
          {
            title: t("care.family.dataThisCycle"),
            key: "data",
            render: (_: unknown, line) => {
              const meter = meterOf.get(line.id);
              if (!meter) return "—";
              return (
                <span data-testid="family-line-data">
                  {t("care.family.used", { used: formatDataMb(meter.used) })}
                  {meter.shared && <Tag style={{ marginInlineStart: 6 }}>{t("usage.pool.title")}</Tag>}
                  {meter.capped && <StatusTag tone="bad">{t("care.family.stopped")}</StatusTag>}
                </span>
              );
            },
          },
          {
            title: t("fields.dataCapMb"),
            key: "cap",
            render: (_: unknown, line) => {
              const cap = meterOf.get(line.id)?.cap ?? line.dataCapMb;
              return (
                <span data-testid="family-line-cap">
                  {cap === null || cap === undefined ? t("care.family.noCap") : formatDataMb(cap)}
                </span>
              );
            },
          },
          {
            title: t("list.actions"),
            key: "actions",
            render: (_: unknown, line) => (
              <Space size={4}>
                <RecordActions resource={linesResource} record={line} primary={FAMILY_LINE_ACTIONS} />
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
