import { useEffect, useState } from "react";
import { Alert, App, Button, Card, Form, Input, Skeleton, Space, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { ApiError } from "../../providers/apiClient";
import { dataProvider } from "../../providers/dataProvider";
import { PROBLEM_TYPES } from "../../resources/api";
import { CARE_PIN_MAX_DIGITS, carePinSchema, type CarePinState } from "../../resources/carePin";
import { zodRules } from "../../components/formRules";
import { formatDateTime } from "../../components/format";

const URL = "/me/care-pin";

/**
 * The subscriber's care PIN (GET/PUT /me/care-pin): whether one is set, and a masked numeric field
 * to set or change it, checked by the server's own rule before it is sent. The server wants a recent
 * sign-in: `signInAgain` opens the page's re-authentication dialog, then the save is tried once more.
 */
export function CarePinCard({ signInAgain }: { signInAgain: () => Promise<boolean> }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ pin: string }>();
  const [state, setState] = useState<CarePinState | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let active = true;
    dataProvider.custom!<CarePinState>({ url: URL, method: "get" })
      .then(({ data }) => {
        if (active) setState(data);
      })
      .catch(() => {
        if (active) setLoadFailed(true);
      });
    return () => {
      active = false;
    };
  }, []);

  const put = (pin: string) => dataProvider.custom!<CarePinState>({ url: URL, method: "put", payload: { pin } });

  async function save({ pin }: { pin: string }) {
    setSaving(true);
    const wasSet = state?.set ?? false;
    try {
      let saved: CarePinState;
      try {
        saved = (await put(pin)).data;
      } catch (e) {
        if ((e as ApiError).problemType !== PROBLEM_TYPES.reauthRequired || !(await signInAgain())) throw e;
        saved = (await put(pin)).data;
      }
      setState(saved);
      setEditing(false);
      form.resetFields();
      void message.success(t(wasSet ? "security.carePin.changed" : "security.carePin.saved"));
    } catch (e) {
      const problem = e as ApiError;
      const atPin = (problem.errors as Record<string, string[]> | undefined)?.pin?.[0];
      // The server words its refusal in the page's language; a PIN refusal belongs under the field.
      if (atPin) form.setFields([{ name: "pin", errors: [`${t("security.carePin.newPin")}: ${atPin}`] }]);
      else if (problem.problemType !== PROBLEM_TYPES.reauthRequired) void message.error(problem.message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card title={t("security.carePin.title")} id="care-pin">
      <Typography.Paragraph type="secondary">{t("security.carePin.explain")}</Typography.Paragraph>
      {loadFailed ? (
        <Alert type="error" showIcon message={t("security.carePin.loadFailed")} />
      ) : !state ? (
        <Skeleton active paragraph={{ rows: 1 }} title={false} />
      ) : (
        <>
          <Typography.Paragraph>
            {state.set && state.updatedAt
              ? t("security.carePin.isSet", { date: formatDateTime(state.updatedAt) })
              : t("security.carePin.notSet")}
          </Typography.Paragraph>
          {editing ? (
            <Form
              noValidate
              form={form}
              layout="vertical"
              requiredMark={false}
              style={{ maxWidth: 400 }}
              onFinish={(values) => void save(values)}
            >
              <Form.Item
                name="pin"
                label={t("security.carePin.newPin")}
                extra={t("security.carePin.hint")}
                rules={zodRules(carePinSchema, t("security.carePin.newPin"))}
                validateTrigger="onBlur"
              >
                {/* Masked like a password, with the eye to check it; a numeric keypad on phones; never autofilled. */}
                <Input.Password
                  inputMode="numeric"
                  pattern="[0-9]*"
                  autoComplete="off"
                  maxLength={CARE_PIN_MAX_DIGITS}
                  // eslint-disable-next-line jsx-a11y/no-autofocus -- the person just asked to type a PIN
                  autoFocus
                />
              </Form.Item>
              <Space wrap>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t("security.carePin.save")}
                </Button>
                <Button
                  onClick={() => {
                    form.resetFields();
                    setEditing(false);
                  }}
                >
                  {t("form.cancel")}
                </Button>
              </Space>
            </Form>
          ) : (
            <Button type={state.set ? "default" : "primary"} onClick={() => setEditing(true)}>
              {t(state.set ? "security.carePin.changeAction" : "security.carePin.setAction")}
            </Button>
          )}
        </>
      )}
    </Card>
  );
}
