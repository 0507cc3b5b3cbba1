import { useGetIdentity, useList } from "@refinedev/core";
import { Alert, App, Button, Card, Form, Input, Select, Space, Typography, type FormInstance } from "antd";
import { useEffect, useState } from "react";
import { translate as t } from "../../../i18n";
import { accessScope } from "../../../resources/access";
import { linesResource } from "../../../resources/lines";
import type { Subscriber } from "../../../resources/subscribers";
import type { StaffMember } from "../../../resources/staff";
import type { ApiError } from "../../../providers/apiClient";
import type { SessionUser } from "../../../providers/session";
import { useResourceAction } from "../../../components/actions/useResourceAction";
import { useNow } from "../useNow";

/** Whether the viewer must verify this caller before the subscriber's records open (an agent, not yet verified). */
export function useCallerLocked(subscriber: Subscriber | undefined): boolean {
  const { data: user } = useGetIdentity<SessionUser>();
  const now = useNow(1000);
  if (!subscriber || accessScope(user, linesResource, "show") !== "verified") return false;
  return !subscriber.verifiedUntil || Date.parse(subscriber.verifiedUntil) <= now;
}

/** What a section shows instead of its records while the caller is not verified. */
export function VerifyCallerFirst() {
  return (
    <Typography.Text type="secondary" data-testid="verify-first">
      {t("care.verify.first")}
    </Typography.Text>
  );
}

/** A form the server's refusal at one field is shown under. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the panel's three forms
type FieldErrorsOf = FormInstance<any>;

const remaining = (until: string, now: number) => {
  const seconds = Math.max(0, Math.round((Date.parse(until) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
};

/**
 * The caller-verification panel of the 360 (issue 27): the care PIN the caller gives, or a code sent
 * by SMS to their line that they read out; for admins, an override naming the agent, with a reason.
 * Once verified it counts down the 30 minutes; `onChanged` reloads the 360 (its sections open).
 */
export function CallerVerification({ subscriber, onChanged }: { subscriber: Subscriber; onChanged: () => void }) {
  const { message } = App.useApp();
  const { data: user } = useGetIdentity<SessionUser>();
  // The countdown ticks every second (and the lock comes back when it runs out).
  const now = useNow(1000);
  const verifyCaller = useResourceAction("subscribers", "verify-caller", subscriber);
  const [pinForm] = Form.useForm<{ pin: string }>();
  const [codeForm] = Form.useForm<{ code: string }>();
  const [overrideForm] = Form.useForm<{ agentUid: string; reason: string }>();
  const [codeSent, setCodeSent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const isAdmin = user?.role === "admin";
  const verified = subscriber.verifiedUntil && Date.parse(subscriber.verifiedUntil) > now;

  // The lock comes back on its own when the verification runs out.
  useEffect(() => {
    if (!subscriber.verifiedUntil) return;
    const left = Date.parse(subscriber.verifiedUntil) - Date.now();
    const timer = setTimeout(onChanged, Math.max(0, left) + 500);
    return () => clearTimeout(timer);
  }, [subscriber.verifiedUntil, onChanged]);

  async function send(what: string, payload: Record<string, unknown>, form?: FieldErrorsOf) {
    setBusy(what);
    try {
      // The declared action (src/resources/subscribers.ts), which puts a refusal at its field on `form`.
      await verifyCaller.run(payload, { form });
      return true;
    } catch (e) {
      const problem = e as ApiError;
      const errors = (problem.errors ?? {}) as Record<string, unknown>;
      const atField = form && ["pin", "code", "agentUid", "reason"].some((name) => name in errors);
      if (!atField) void message.error(problem.message);
      return false;
    } finally {
      setBusy(null);
    }
  }

  const done = () => {
    void message.success(t("care.verify.done"));
    onChanged();
  };

  return (
    <Card size="small" title={t("care.verify.title")} data-testid="caller-verification">
      {verified ? (
        <Alert
          type="success"
          showIcon
          data-testid="caller-verified"
          message={t("care.verify.verified", { time: remaining(subscriber.verifiedUntil!, now) })}
        />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          {!isAdmin && <Alert type="warning" showIcon message={t("care.verify.explain")} />}
          <Space wrap align="start" size="large">
            <Form
              form={pinForm}
              layout="inline"
              onFinish={({ pin }) =>
                void send("pin", { method: "pin", pin }, pinForm).then((ok) => {
                  if (ok) done();
                })
              }
            >
              <Form.Item
                name="pin"
                label={t("care.verify.pin")}
                rules={[{ required: true, message: t("care.verify.pinRequired") }]}
              >
                <Input.Password
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={8}
                  style={{ width: 140 }}
                  data-testid="verify-pin"
                />
              </Form.Item>
              <Button htmlType="submit" type="primary" loading={busy === "pin"}>
                {t("care.verify.checkPin")}
              </Button>
            </Form>
            <Space direction="vertical">
              <Button
                data-testid="verify-send-code"
                loading={busy === "send"}
                onClick={() =>
                  void send("send", { method: "sms-code" }).then((ok) => {
                    if (!ok) return;
                    setCodeSent(true);
                    void message.success(t("care.verify.codeSent"));
                  })
                }
              >
                {codeSent ? t("care.verify.sendAgain") : t("care.verify.sendCode")}
              </Button>
              {codeSent && (
                <Form
                  form={codeForm}
                  layout="inline"
                  onFinish={({ code }) =>
                    void send("code", { method: "sms-code", code }, codeForm).then((ok) => {
                      if (ok) done();
                    })
                  }
                >
                  <Form.Item
                    name="code"
                    label={t("care.verify.code")}
                    rules={[{ required: true, message: t("care.verify.codeRequired") }]}
                  >
                    <Input
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={6}
                      style={{ width: 120 }}
                      data-testid="verify-code"
                    />
                  </Form.Item>
                  <Button htmlType="submit" type="primary" loading={busy === "code"}>
                    {t("care.verify.checkCode")}
                  </Button>
                </Form>
              )}
            </Space>
          </Space>
          {isAdmin && <OverrideForm form={overrideForm} busy={busy === "override"} onSend={send} onDone={done} />}
        </Space>
      )}
    </Card>
  );
}

/** An admin grants an agent a verification for this caller, with a reason (audited; the subscriber is told). */
function OverrideForm({
  form,
  busy,
  onSend,
  onDone,
}: {
  form: ReturnType<typeof Form.useForm<{ agentUid: string; reason: string }>>[0];
  busy: boolean;
  onSend: (what: string, payload: Record<string, unknown>, form?: FieldErrorsOf) => Promise<boolean>;
  onDone: () => void;
}) {
  const { result } = useList<StaffMember>({
    resource: "staff",
    filters: [{ field: "disabled", operator: "eq", value: false }],
    pagination: { currentPage: 1, pageSize: 100 },
  });
  return (
    <Form
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      onFinish={({ agentUid, reason }) =>
        void onSend("override", { method: "override", agentUid, reason }, form).then((ok) => {
          if (ok) onDone();
        })
      }
    >
      <Typography.Text strong>{t("care.verify.override")}</Typography.Text>
      <Form.Item
        name="agentUid"
        label={t("care.verify.agent")}
        rules={[{ required: true, message: t("care.verify.agentRequired") }]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          options={(result?.data ?? []).map((member) => ({
            value: member.uid,
            label: member.displayName ? `${member.displayName} · ${member.email}` : member.email,
          }))}
        />
      </Form.Item>
      <Form.Item
        name="reason"
        label={t("care.verify.reason")}
        rules={[{ required: true, min: 3, message: t("care.verify.reasonRequired") }]}
      >
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Button htmlType="submit" danger loading={busy}>
        {t("care.verify.grant")}
      </Button>
    </Form>
  );
}
