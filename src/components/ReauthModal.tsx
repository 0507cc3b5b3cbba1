import { useRef, useState } from "react";
import { Form, Input, Modal, Typography } from "antd";
import { translate as t } from "../i18n";
import { reauthenticate, reauthMethod, startPhoneReauth, type CodeStep } from "../providers/identityFlows";
import { maskPhone } from "../providers/phoneNumbers";
import { auth } from "../providers/firebase";

/**
 * Asks the signed-in person to prove again that they hold the account (password, or a code texted to
 * its phone) before an action the backend guards with a recent sign-in. `onDone(true)` once the
 * session is fresh, so the caller retries; `onDone(false)` when they cancel.
 */
export function ReauthModal({ open, onDone }: { open: boolean; onDone: (ok: boolean) => void }) {
  const [form] = Form.useForm<{ password?: string; code?: string }>();
  const recaptcha = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<CodeStep>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const method = reauthMethod();

  const close = (ok: boolean) => {
    setStep(undefined);
    setError(undefined);
    form.resetFields();
    onDone(ok);
  };

  async function submit() {
    setError(undefined);
    if (method === "phone" && !step) {
      setPending(true);
      const sent = await startPhoneReauth(recaptcha.current!);
      setPending(false);
      if (sent.ok) setStep(sent.step);
      else setError(sent.message);
      return;
    }
    const values = await form.validateFields();
    setPending(true);
    const result =
      method === "password" ? await reauthenticate(values.password ?? "") : await step!.verify(values.code ?? "");
    setPending(false);
    if (result.ok) return close(true);
    const field = method === "password" ? "password" : "code";
    form.setFields([{ name: field, errors: [result.message] }]);
  }

  return (
    <Modal
      open={open}
      title={t("reauth.title")}
      onCancel={() => close(false)}
      onOk={() => void submit()}
      okText={method === "phone" && !step ? t("phone.send") : t("reauth.confirm")}
      cancelText={t("form.cancel")}
      confirmLoading={pending}
      okButtonProps={{ disabled: method === null }}
      destroyOnHidden
    >
      <Typography.Paragraph>{t("reauth.why")}</Typography.Paragraph>
      {error && (
        <Typography.Paragraph type="danger" role="alert">
          {error}
        </Typography.Paragraph>
      )}
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
        {method === "password" && (
          <Form.Item
            name="password"
            label={t("signIn.password")}
            rules={[{ required: true, message: t("signIn.errors.passwordRequired") }]}
          >
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog opened to ask for exactly this */}
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
        )}
        {method === "phone" &&
          (step ? (
            <Form.Item
              name="code"
              label={t("code.label")}
              extra={t("code.sentTo", { to: step.sentTo })}
              rules={[{ required: true, pattern: /^\d{6}$/, message: t("auth.errors.codeRequired") }]}
            >
              {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the code was just sent: typing it is the next step */}
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            </Form.Item>
          ) : (
            <Typography.Paragraph>
              {t("reauth.phone", { phone: maskPhone(auth.currentUser?.phoneNumber ?? undefined) })}
            </Typography.Paragraph>
          ))}
        {method === null && <Typography.Paragraph>{t("reauth.signInAgain")}</Typography.Paragraph>}
        {/* Enter in the field submits; a native hidden button takes no room (antd's Button ignores `hidden` and drew an empty box). */}
        <button type="submit" hidden />
      </Form>
      <div ref={recaptcha} />
    </Modal>
  );
}
