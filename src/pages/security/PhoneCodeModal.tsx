import { useRef, useState } from "react";
import { Form, Input, Modal, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { CodeStep, CodeStepResult, FlowResult } from "../../providers/identityFlows";

/**
 * Two steps in one dialog: a phone number (Firebase texts a code to it), then the code. Used to
 * link a phone to the account and to enrol it as a second step.
 */
export function PhoneCodeModal({
  open,
  title,
  start,
  onClose,
  onDone,
}: {
  open: boolean;
  title: string;
  start: (phone: string, recaptcha: HTMLElement) => Promise<CodeStepResult>;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ phone?: string; code?: string }>();
  const recaptcha = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<CodeStep>();
  const [pending, setPending] = useState(false);
  const [formError, setFormError] = useState<string>();

  function close() {
    setStep(undefined);
    setFormError(undefined);
    form.resetFields();
    onClose();
  }

  async function submit() {
    const values = await form.validateFields();
    setPending(true);
    setFormError(undefined);
    const result: FlowResult | CodeStepResult = step
      ? await step.verify(values.code ?? "")
      : await start(values.phone ?? "", recaptcha.current!);
    setPending(false);
    if (result.ok) {
      const next = (result as { step?: CodeStep }).step;
      if (next) return setStep(next);
      close();
      return onDone();
    }
    const field = result.field === "phone" || result.field === "code" ? result.field : undefined;
    if (field) form.setFields([{ name: field, errors: [result.message] }]);
    else setFormError(result.message);
  }

  return (
    <Modal
      open={open}
      title={title}
      onCancel={close}
      onOk={() => void submit()}
      confirmLoading={pending}
      okText={step ? t("code.submit") : t("phone.send")}
      destroyOnHidden
    >
      <Form noValidate form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()}>
        {formError && (
          <Typography.Paragraph type="danger" role="alert">
            {formError}
          </Typography.Paragraph>
        )}
        {step ? (
          <>
            <Typography.Paragraph>{t("code.sentTo", { to: step.sentTo })}</Typography.Paragraph>
            <Form.Item
              name="code"
              label={t("code.label")}
              rules={[{ required: true, pattern: /^\d{6}$/, message: t("auth.errors.codeRequired") }]}
            >
              {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog moves focus into itself (WAI-ARIA dialog pattern) */}
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} autoFocus />
            </Form.Item>
          </>
        ) : (
          <Form.Item
            name="phone"
            label={t("phone.label")}
            extra={t("phone.hint")}
            rules={[{ required: true, message: t("auth.errors.phoneRequired") }]}
          >
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a dialog moves focus into itself (WAI-ARIA dialog pattern) */}
            <Input type="tel" inputMode="tel" autoComplete="tel" autoFocus />
          </Form.Item>
        )}
      </Form>
      <div ref={recaptcha} />
    </Modal>
  );
}
