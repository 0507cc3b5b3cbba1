import { useState } from "react";
import { List, useTable } from "@refinedev/antd";
import { useCreate, useCustom, useCustomMutation, useGetIdentity, useUpdate, type HttpError } from "@refinedev/core";
import { App, Button, Card, Form, Input, Modal, Select, Space, Switch, Table, Typography } from "antd";
import { useQueryClient } from "@tanstack/react-query";
import { translate as t } from "../../i18n";
import { NEW_STAFF_APPROVAL_RULES, type SecurityPolicy } from "../../resources/identity";
import { STAFF_ROLES, staffResource, type StaffInviteResult, type StaffMember } from "../../resources/staff";
import { FieldValue } from "../../components/FieldValue";
import { RecordActions } from "../../components/actions/RecordActions";
import { PageTitle } from "../../components/PageTitle";

type Change = { member: StaffMember; kind: "role" | "disable" | "enable" } | null;

/**
 * Admins manage their operator's staff: invite (the link is emailed to the invitee), confirm a member
 * another admin invited, change a role, disable; every change with a reason, audited by the backend.
 */
export default function StaffPage() {
  const { message } = App.useApp();
  const { tableProps, tableQuery } = useTable<StaffMember, HttpError>({
    resource: "staff",
    syncWithLocation: true,
    sorters: { initial: [{ field: "email", order: "asc" }] },
  });
  const [inviting, setInviting] = useState(false);
  const [change, setChange] = useState<Change>(null);
  const { data: me } = useGetIdentity<{ uid: string }>();

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <SecurityPolicyCard />
      <List
        title={<PageTitle>{t("resources.staff.label")}</PageTitle>}
        headerButtons={
          <Button type="primary" onClick={() => setInviting(true)}>
            {t("staff.invite")}
          </Button>
        }
      >
        <Table<StaffMember>
          {...tableProps}
          rowKey="uid"
          scroll={{ x: "max-content" }}
          columns={[
            // The declared columns, shown the way the declaration says; then what an admin can do.
            ...staffResource.list.columns.map((name) => ({
              key: name,
              dataIndex: name,
              title: t(staffResource.fields[name]?.label ?? name),
              sorter: staffResource.list.sortable.includes(name),
              render: (_: unknown, member: StaffMember) => (
                <FieldValue name={name} spec={staffResource.fields[name]} record={member} />
              ),
            })),
            {
              key: "actions",
              title: t("staff.actions"),
              render: (_: unknown, member: StaffMember) => {
                // The backend refuses changes to your own role or access (no admin can lock themselves out).
                const self = member.uid === me?.uid;
                const title = self ? t("staff.notYourself") : undefined;
                return (
                  <Space wrap>
                    {/* The declared actions (confirm: another admin than the inviter vouches for a new member). */}
                    {!self && member.invitedBy !== me?.uid && (
                      <RecordActions resource={staffResource} record={member} />
                    )}
                    <Button
                      size="small"
                      disabled={self}
                      title={title}
                      onClick={() => setChange({ member, kind: "role" })}
                    >
                      {t("staff.changeRole")}
                    </Button>
                    {member.disabled ? (
                      <Button
                        size="small"
                        disabled={self}
                        title={title}
                        onClick={() => setChange({ member, kind: "enable" })}
                      >
                        {t("staff.enable")}
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        danger
                        disabled={self}
                        title={title}
                        onClick={() => setChange({ member, kind: "disable" })}
                      >
                        {t("staff.disable")}
                      </Button>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      </List>
      <InviteModal open={inviting} onClose={() => setInviting(false)} onInvited={() => void tableQuery.refetch()} />
      <ChangeModal
        change={change}
        onClose={() => setChange(null)}
        onChanged={() => {
          message.success(t("staff.saved"));
          void tableQuery.refetch();
        }}
      />
    </Space>
  );
}

function SecurityPolicyCard() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // One setting, not a list of records: read and written through the data provider's custom requests.
  const { result: read, query } = useCustom<SecurityPolicy>({ url: "/security-policy", method: "get" });
  const policy = { data: query.isSuccess ? read.data : undefined, isLoading: query.isLoading };
  const { mutateAsync: write } = useCustomMutation();
  function change(update: Partial<SecurityPolicy>, title: string) {
    let reason = "";
    modal.confirm({
      title,
      content: (
        <Input
          aria-label={t("staff.reason")}
          placeholder={t("staff.reason")}
          onChange={(e) => (reason = e.target.value)}
        />
      ),
      onOk: async () => {
        try {
          await write({
            url: "/security-policy",
            method: "put",
            values: { ...update, reason },
            successNotification: false,
            errorNotification: false,
          });
          // The policy and what follows from it (the staff MFA gate reads /me).
          await queryClient.invalidateQueries();
          message.success(t("staff.saved"));
        } catch (error) {
          message.error((error as HttpError).message);
          throw error;
        }
      },
    });
  }
  const toggle = (requireStaffMfa: boolean) =>
    change({ requireStaffMfa }, t(requireStaffMfa ? "staff.policyOnConfirm" : "staff.policyOffConfirm"));
  const label = (rule: string) => t(`staff.newStaffMayApprove.${rule}`);
  return (
    <Card title={t("staff.policyTitle")}>
      <Space direction="vertical">
        <Space>
          <Switch
            checked={policy.data?.requireStaffMfa ?? false}
            loading={policy.isLoading}
            onChange={toggle}
            aria-label={t("staff.requireMfa")}
          />
          <Typography.Text>{t("staff.requireMfa")}</Typography.Text>
        </Space>
        <Space wrap>
          <Typography.Text id="new-staff-may-approve">{t("staff.newStaffMayApprove")}</Typography.Text>
          <Select
            aria-labelledby="new-staff-may-approve"
            style={{ minWidth: 280 }}
            value={policy.data?.newStaffMayApprove}
            loading={policy.isLoading}
            options={NEW_STAFF_APPROVAL_RULES.map((rule) => ({ value: rule, label: label(rule) }))}
            onChange={(rule) =>
              change({ newStaffMayApprove: rule }, `${t("staff.newStaffMayApprove")} ${label(rule)}?`)
            }
          />
        </Space>
      </Space>
    </Card>
  );
}

function InviteModal({ open, onClose, onInvited }: { open: boolean; onClose: () => void; onInvited: () => void }) {
  const [form] = Form.useForm<{ email: string; role: string; displayName?: string }>();
  // One key per dialog: a retried submit replays the first invitation instead of making a second user.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [result, setResult] = useState<StaffInviteResult>();
  const { mutateAsync: create, mutation: creating } = useCreate();
  const pending = creating.isPending;

  function close() {
    form.resetFields();
    setResult(undefined);
    setKey(crypto.randomUUID());
    onClose();
  }

  async function submit() {
    const values = await form.validateFields();
    try {
      const { data } = await create({
        resource: "staff",
        values: { ...values, displayName: values.displayName || undefined },
        meta: { idempotencyKey: key },
        successNotification: false,
        errorNotification: false,
      });
      setResult(data as unknown as StaffInviteResult);
      onInvited();
    } catch (error) {
      const problem = error as HttpError;
      const fields = Object.entries(problem.errors ?? {}).map(([name, messages]) => ({
        name,
        errors: ([] as string[]).concat(messages as string[]),
      }));
      if (fields.length) form.setFields(fields as never);
      else form.setFields([{ name: "email", errors: [problem.message] }]);
    }
  }

  return (
    <Modal
      open={open}
      title={t("staff.invite")}
      onCancel={close}
      onOk={() => (result ? close() : void submit())}
      okText={result ? t("staff.done") : t("staff.send")}
      confirmLoading={pending}
      destroyOnHidden
    >
      {result ? (
        <>
          {/* The password setup link went to the invitee's email; the inviter never sees it (issue 26). */}
          <Typography.Paragraph>{t("staff.invited", { email: result.invitationSentTo })}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t("staff.confirmNeeded")}</Typography.Paragraph>
        </>
      ) : (
        <Form noValidate form={form} layout="vertical" initialValues={{ role: "agent" }} onFinish={() => void submit()}>
          <Form.Item
            name="email"
            label={t("fields.email")}
            rules={[{ required: true, type: "email", message: t("signIn.errors.emailInvalid") }]}
          >
            <Input type="email" autoComplete="off" />
          </Form.Item>
          <Form.Item name="displayName" label={t("fields.displayName")}>
            <Input />
          </Form.Item>
          <Form.Item name="role" label={t("fields.role")} rules={[{ required: true }]}>
            <Select options={STAFF_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

function ChangeModal({ change, onClose, onChanged }: { change: Change; onClose: () => void; onChanged: () => void }) {
  const [form] = Form.useForm<{ role?: string; reason: string }>();
  const { mutateAsync: update, mutation } = useUpdate();
  const pending = mutation.isPending;
  async function submit() {
    if (!change) return;
    const values = await form.validateFields();
    const body =
      change.kind === "role"
        ? { role: values.role, reason: values.reason }
        : { disabled: change.kind === "disable", reason: values.reason };
    try {
      await update({
        resource: "staff",
        id: change.member.uid,
        values: body,
        successNotification: false,
        errorNotification: false,
      });
      form.resetFields();
      onClose();
      onChanged();
    } catch (error) {
      const problem = error as HttpError;
      form.setFields([{ name: problem.errors?.role ? "role" : "reason", errors: [problem.message] }]);
    }
  }
  const title = change
    ? t(change.kind === "role" ? "staff.changeRole" : change.kind === "disable" ? "staff.disable" : "staff.enable") +
      ` · ${change.member.email}`
    : "";
  return (
    <Modal
      open={Boolean(change)}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={pending}
      okButtonProps={{ danger: change?.kind === "disable" }}
      destroyOnHidden
    >
      <Form
        noValidate
        form={form}
        layout="vertical"
        initialValues={{ role: change?.member.role }}
        onFinish={() => void submit()}
      >
        {change?.kind === "role" && (
          <Form.Item name="role" label={t("fields.role")} rules={[{ required: true }]}>
            <Select options={STAFF_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={t("staff.reason")}
          rules={[{ required: true, min: 3, message: t("staff.reasonRequired") }]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
