import { useState } from "react";
import { useInvalidateAuthStore } from "@refinedev/core";
import { StatusTag } from "../../components/StatusTag";
import { App, Alert, Button, Card, Form, Input, List, Modal, Popconfirm, Space, Typography } from "antd";
import { PageTitle } from "../../components/PageTitle";
import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { translate as t } from "../../i18n";
import { meQueryKey, useMe } from "../../providers/me";
import { auth } from "../../providers/firebase";
import {
  changePassword,
  linkEmailPassword,
  linkGoogle,
  removeSecondFactor,
  secondFactors,
  signInMethods,
  signOutEverywhere,
  startLinkPhone,
  startMfaEnrollment,
  unlinkMethod,
  type FlowResult,
} from "../../providers/identityFlows";
import { PhoneCodeModal } from "./PhoneCodeModal";
import { ReauthModal } from "../../components/ReauthModal";
import { CarePinCard } from "./CarePinCard";

const METHOD_LABEL: Record<string, string> = {
  password: "security.method.password",
  phone: "security.method.phone",
  "google.com": "security.method.google",
};

/**
 * Account security: the ways to sign in (link, unlink, never the last), recovery at a glance, the
 * second step (SMS), a subscriber's care PIN, the password, and signing out everywhere.
 */
export function SecurityPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const invalidateAuth = useInvalidateAuthStore();
  const me = useMe();
  const [params] = useSearchParams();
  const [, setVersion] = useState(0);
  const [dialog, setDialog] = useState<"phone" | "mfa" | "password" | "email" | null>(null);
  const [pending, setPending] = useState<string>();
  // While set, the sign-in-again dialog is open; it is called with whether the person signed in again.
  const [reauthDone, setReauthDone] = useState<((ok: boolean) => void) | null>(null);

  const methods = signInMethods();
  const factors = secondFactors();
  const user = auth.currentUser;
  const hasPassword = methods.some((m) => m.providerId === "password");

  async function refresh() {
    await auth.currentUser?.getIdToken(true);
    setVersion((v) => v + 1);
    await queryClient.invalidateQueries({ queryKey: meQueryKey });
    await invalidateAuth();
  }

  /** Runs a change; when Firebase wants a recent sign-in, asks for the password and tries once more. */
  async function run(key: string, work: () => Promise<FlowResult>, done: string) {
    setPending(key);
    let result = await work();
    if (!result.ok && result.field === "password" && hasPassword && (await signInAgain())) result = await work();
    setPending(undefined);
    if (result.ok) {
      message.success(done);
      await refresh();
    } else message.error(result.message);
  }

  /** Asks for a recent sign-in in the same dialog every guarded action uses (why, then a labelled password or a texted code). */
  function signInAgain(): Promise<boolean> {
    return new Promise((resolve) => setReauthDone(() => resolve));
  }

  const mfaRequired = me.data?.mfaRequired && !me.data?.secondFactor;

  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 880 }}>
      <PageTitle>{t("security.title")}</PageTitle>

      {(mfaRequired || params.get("required") === "mfa") && (
        <Alert
          type="warning"
          showIcon
          message={t("security.mfaRequiredTitle")}
          description={factors.length ? t("security.mfaSignInAgain") : t("security.mfaEnrolFirst")}
          action={
            factors.length ? <Button onClick={() => void signOutAndBack()}>{t("auth.signOut")}</Button> : undefined
          }
        />
      )}

      <Card title={t("security.methodsTitle")}>
        <Alert
          style={{ marginBottom: 16 }}
          type={methods.length >= 2 ? "success" : "warning"}
          showIcon
          message={
            methods.length >= 2 ? t("security.recoveryOk", { count: methods.length }) : t("security.recoveryWeak")
          }
        />
        <List
          dataSource={methods}
          renderItem={(m) => (
            <List.Item
              actions={[
                <Popconfirm
                  key="unlink"
                  title={t("security.unlinkConfirm")}
                  onConfirm={() =>
                    void run(`unlink-${m.providerId}`, () => unlinkMethod(m.providerId), t("security.unlinked"))
                  }
                  disabled={methods.length <= 1}
                >
                  <Button
                    danger
                    disabled={methods.length <= 1}
                    loading={pending === `unlink-${m.providerId}`}
                    title={methods.length <= 1 ? t("security.lastMethod") : undefined}
                  >
                    {t("security.unlink")}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={t(METHOD_LABEL[m.providerId] ?? m.providerId, undefined, m.providerId)}
                description={m.label}
              />
            </List.Item>
          )}
        />
        <Space wrap>
          {!methods.some((m) => m.providerId === "phone") && (
            <Button onClick={() => setDialog("phone")}>{t("security.addPhone")}</Button>
          )}
          {!hasPassword && <Button onClick={() => setDialog("email")}>{t("security.addPassword")}</Button>}
          {!methods.some((m) => m.providerId === "google.com") && (
            <Button loading={pending === "google"} onClick={() => void run("google", linkGoogle, t("security.linked"))}>
              {t("security.addGoogle")}
            </Button>
          )}
        </Space>
      </Card>

      <Card title={t("security.mfaTitle")}>
        <Typography.Paragraph type="secondary">{t("security.mfaExplain")}</Typography.Paragraph>
        {user?.email && !user.emailVerified && hasPassword && (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t("auth.errors.unverifiedEmail")} />
        )}
        <List
          dataSource={factors}
          locale={{ emptyText: <Typography.Text type="secondary">{t("security.noFactors")}</Typography.Text> }}
          renderItem={(f) => (
            <List.Item
              actions={[
                <Popconfirm
                  key="remove"
                  title={t("security.removeFactorConfirm")}
                  onConfirm={() =>
                    void run(`factor-${f.uid}`, () => removeSecondFactor(f.uid), t("security.factorRemoved"))
                  }
                >
                  <Button danger loading={pending === `factor-${f.uid}`}>
                    {t("security.removeFactor")}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={
                  <Space>
                    {f.label}
                    <StatusTag tone="good">SMS</StatusTag>
                  </Space>
                }
                description={t("security.enrolledAt", { date: new Date(f.enrolledAt).toLocaleDateString() })}
              />
            </List.Item>
          )}
        />
        <Button type="primary" onClick={() => setDialog("mfa")}>
          {t("security.addFactor")}
        </Button>
      </Card>

      {me.data?.role === "subscriber" && <CarePinCard signInAgain={signInAgain} />}

      {hasPassword && (
        <Card title={t("security.passwordTitle")}>
          <ChangePasswordForm onChanged={() => void message.success(t("security.passwordChanged"))} />
        </Card>
      )}

      <Card title={t("security.sessionsTitle")}>
        <Typography.Paragraph type="secondary">{t("security.sessionsExplain")}</Typography.Paragraph>
        <Popconfirm title={t("security.signOutEverywhereConfirm")} onConfirm={() => void signOutAll()}>
          <Button danger loading={pending === "everywhere"}>
            {t("security.signOutEverywhere")}
          </Button>
        </Popconfirm>
      </Card>

      <PhoneCodeModal
        open={dialog === "phone"}
        title={t("security.addPhone")}
        start={startLinkPhone}
        onClose={() => setDialog(null)}
        onDone={() => void refresh().then(() => message.success(t("security.linked")))}
      />
      <PhoneCodeModal
        open={dialog === "mfa"}
        title={t("security.addFactor")}
        start={async (phone, recaptcha) => {
          const first = await startMfaEnrollment(phone, recaptcha);
          if (first.ok || first.field !== "password" || !hasPassword) return first;
          return (await signInAgain()) ? startMfaEnrollment(phone, recaptcha) : first;
        }}
        onClose={() => setDialog(null)}
        onDone={() => void refresh().then(() => message.success(t("security.factorAdded")))}
      />
      <ReauthModal
        open={reauthDone !== null}
        onDone={(ok) => {
          reauthDone?.(ok);
          setReauthDone(null);
        }}
      />
      <LinkPasswordModal
        open={dialog === "email"}
        onClose={() => setDialog(null)}
        onDone={() => void refresh().then(() => message.success(t("security.linked")))}
      />
    </Space>
  );

  async function signOutAll() {
    setPending("everywhere");
    const result = await signOutEverywhere();
    setPending(undefined);
    if (result.ok) window.location.assign("/login");
    else message.error(result.message);
  }

  async function signOutAndBack() {
    await auth.signOut();
    window.location.assign("/login?to=/security");
  }
}

function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const [form] = Form.useForm<{ current: string; next: string }>();
  const [pending, setPending] = useState(false);
  return (
    <Form
      noValidate
      form={form}
      layout="vertical"
      style={{ maxWidth: 400 }}
      onFinish={(values) => {
        setPending(true);
        void changePassword(values.current, values.next).then((result) => {
          setPending(false);
          if (result.ok) {
            form.resetFields();
            return onChanged();
          }
          const field = result.field === "newPassword" ? "next" : "current";
          form.setFields([{ name: field, errors: [result.message] }]);
        });
      }}
    >
      <Form.Item
        name="current"
        label={t("security.currentPassword")}
        rules={[{ required: true, message: t("signIn.errors.passwordRequired") }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="next"
        label={t("security.newPassword")}
        extra={t("register.passwordHint")}
        rules={[{ required: true, min: 8, message: t("register.errors.passwordShort") }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button htmlType="submit" type="primary" loading={pending}>
        {t("security.changePassword")}
      </Button>
    </Form>
  );
}

function LinkPasswordModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ email: string; password: string }>();
  const [pending, setPending] = useState(false);
  async function submit() {
    const values = await form.validateFields();
    setPending(true);
    const result = await linkEmailPassword(values.email, values.password);
    setPending(false);
    if (result.ok) {
      form.resetFields();
      onClose();
      return onDone();
    }
    form.setFields([{ name: result.field === "newPassword" ? "password" : "email", errors: [result.message] }]);
  }
  return (
    <Modal
      open={open}
      title={t("security.addPassword")}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={pending}
      destroyOnHidden
    >
      <Form noValidate form={form} layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          name="email"
          label={t("signIn.email")}
          rules={[{ required: true, type: "email", message: t("signIn.errors.emailInvalid") }]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("register.password")}
          extra={t("register.passwordHint")}
          rules={[{ required: true, min: 8, message: t("register.errors.passwordShort") }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
