import { useCustom, useList, type HttpError } from "@refinedev/core";
import { App, Button, Checkbox, Form, Input, Modal, Radio, Typography } from "antd";
import { useState } from "react";
import { translate as t } from "../../i18n";
import type { AccountMember } from "../../resources/accountMembers";
import { accountsResource, type Account } from "../../resources/accounts";
import type { Line } from "../../resources/lines";
import { formatDate, formatMsisdn } from "../../components/format";
import { useResourceAction } from "../../components/actions/useResourceAction";

/**
 * "People on this account" (issue 28 item 6), on its page under Account: for each account the
 * person holds, who else is on it (members see their lines only, managers everything but payment
 * methods), inviting one more and removing one; for an account they manage, the same list to read.
 * A member opens no account: they are told who decides instead.
 */
export function PeopleOnAccount({ uid }: { uid: string }) {
  const { result, query } = useList<Account>({ resource: "accounts", pagination: { pageSize: 20 } });
  const held = result.data ?? [];
  if (!query.isSuccess) return null;
  if (!held.length) return <p className="sub-card">{t("people.noAccount")}</p>;
  return (
    <>
      {held.map((account) => (
        <AccountPeople key={account.id} account={account} holder={account.ownerUid === uid} many={held.length > 1} />
      ))}
    </>
  );
}

function AccountPeople({ account, holder, many }: { account: Account; holder: boolean; many: boolean }) {
  const { message, modal } = App.useApp();
  const { result, query } = useCustom<{ data: AccountMember[] }>({
    url: `/accounts/${account.id}/members`,
    method: "get",
  });
  // The declared actions (access, `when`, field errors, idempotency), as every page runs them.
  const removeMember = useResourceAction(accountsResource, "remove-member", account);
  const [inviting, setInviting] = useState(false);
  const people = query.isSuccess ? result.data.data : [];
  const headingId = `people-${account.id}`;

  // Removing someone who joined, or withdrawing an invitation not yet taken: the same action, said as what it is.
  function remove(person: AccountMember) {
    const joined = person.status === "active";
    modal.confirm({
      title: t(joined ? "people.removeTitle" : "people.withdrawTitle", { email: person.email }),
      content: t(joined ? "people.removeConfirm" : "people.withdrawConfirm"),
      okText: t(joined ? "people.remove" : "people.withdraw"),
      okButtonProps: { danger: true },
      cancelText: t("people.keep"),
      onOk: async () => {
        try {
          await removeMember.run({ memberId: person.id });
          message.success(t(joined ? "people.removed" : "people.withdrawn", { email: person.email }));
          void query.refetch();
        } catch (error) {
          message.error((error as HttpError).message);
          throw error;
        }
      },
    });
  }

  return (
    <section className="sub-card" aria-labelledby={headingId}>
      {/* Wraps rather than cuts: the account's name and kind at the end are what tell two such cards apart. */}
      <h2 id={headingId} className="sub-card__title" style={{ marginTop: 0 }}>
        {t("people.title")}
        {/* A person with two accounts under one name (alex's prepaid and postpaid) tells them apart by their kind. */}
        {many ? ` · ${account.name} · ${t(`enums.accountType.${account.type}`)}` : ""}
      </h2>
      <p className="sub-card__muted">{t(holder ? "people.aboutHolder" : "people.aboutManager")}</p>
      {people.length === 0 && query.isSuccess && <p>{t("people.none")}</p>}
      <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
        {people.map((person) => (
          <li
            key={person.id}
            style={{
              display: "flex",
              flexWrap: "wrap",
              gap: 8,
              justifyContent: "space-between",
              alignItems: "center",
              padding: "8px 0",
              borderTop: "1px solid rgba(0,0,0,0.06)",
            }}
          >
            <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>
              <strong>{person.email}</strong>
              <div className="sub-card__muted">
                {t(`people.role.${person.role}`)}
                {person.role === "member" && person.lines.length > 0
                  ? ` · ${person.lines.map((line) => formatMsisdn(line.msisdn)).join(", ")}`
                  : ""}
              </div>
              <div className="sub-card__muted">
                {person.status === "active"
                  ? t("people.joined")
                  : t("people.invitedUntil", { date: formatDate(person.expiresAt!.slice(0, 10)) })}
              </div>
            </div>
            {holder && (
              <Button
                danger
                onClick={() => remove(person)}
                aria-label={t(person.status === "active" ? "people.removeNamed" : "people.withdrawNamed", {
                  email: person.email,
                })}
              >
                {person.status === "active" ? t("people.remove") : t("people.withdraw")}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {holder && (
        <Button type="primary" block style={{ marginTop: 12 }} onClick={() => setInviting(true)}>
          {t("people.invite")}
        </Button>
      )}
      {holder && (
        <InviteDialog
          account={account}
          open={inviting}
          onClose={() => setInviting(false)}
          onInvited={() => void query.refetch()}
        />
      )}
    </section>
  );
}

function InviteDialog({
  account,
  open,
  onClose,
  onInvited,
}: {
  account: Account;
  open: boolean;
  onClose: () => void;
  onInvited: () => void;
}) {
  const [form] = Form.useForm<{ email: string; role: "member" | "manager"; lineIds: string[] }>();
  const role = Form.useWatch("role", form);
  const { result: lineList } = useList<Line>({
    resource: "lines",
    filters: [{ field: "accountId", operator: "eq", value: account.id }],
    pagination: { pageSize: 50 },
    queryOptions: { enabled: open },
  });
  const invite = useResourceAction(accountsResource, "invite-member", account);
  const [link, setLink] = useState<string>();

  function close() {
    form.resetFields();
    setLink(undefined);
    onClose();
  }

  async function submit(values: { email: string; role: "member" | "manager"; lineIds?: string[] }) {
    try {
      const answer = await invite.run(
        { email: values.email, role: values.role, lineIds: values.role === "member" ? (values.lineIds ?? []) : [] },
        { form, fieldNames: { lineIds: "lineIds" } },
      );
      setLink(String(answer.invitationUrl));
      onInvited();
    } catch (error) {
      // The hook put field errors on their fields; words naming none go under the email, where the person looks.
      if (!form.getFieldsError().some((field) => field.errors.length))
        form.setFields([{ name: "email", errors: [(error as HttpError).message] }]);
    }
  }

  return (
    <Modal
      open={open}
      title={t("people.inviteTitle")}
      onCancel={close}
      footer={
        link ? (
          <Button type="primary" onClick={close}>
            {t("people.done")}
          </Button>
        ) : (
          <>
            <Button onClick={close}>{t("people.cancel")}</Button>
            <Button type="primary" loading={invite.running} onClick={() => form.submit()}>
              {t("people.send")}
            </Button>
          </>
        )
      }
    >
      {link ? (
        <div role="status">
          <p>{t("people.sent")}</p>
          <Typography.Paragraph copyable={{ text: link }} style={{ overflowWrap: "anywhere" }}>
            {link}
          </Typography.Paragraph>
        </div>
      ) : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ role: "member", lineIds: [] }}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item
            name="email"
            label={t("fields.memberEmail")}
            rules={[{ required: true, type: "email", message: t("validation.email") }]}
          >
            <Input type="email" autoComplete="off" inputMode="email" />
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
                {(lineList.data ?? []).map((line) => (
                  <Checkbox key={line.id} value={line.id}>
                    {formatMsisdn(line.msisdn)}
                  </Checkbox>
                ))}
              </Checkbox.Group>
            </Form.Item>
          )}
        </Form>
      )}
    </Modal>
  );
}
