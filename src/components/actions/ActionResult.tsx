import { Alert, Button, Descriptions, Modal, QRCode, Space, Typography } from "antd";
import type { ActionSpec } from "../../resources/define";
import { translate as t } from "../../i18n";
import { fieldText } from "../fieldText";
import { esimInstallLink } from "./esimInstallLink";

/**
 * A value an action answers once (a PIN, a PUK, an eSIM activation code): shown here, large and
 * copyable, with the warning that it will not be shown again. An activation code is a QR code to scan,
 * and on a phone that can install it from a link, a button that does.
 */
export function ActionResult({
  action,
  label,
  result,
  onClose,
}: {
  action: ActionSpec;
  label: string;
  result?: Record<string, unknown>;
  onClose: () => void;
}) {
  const fields = Object.entries(action.result?.fields ?? {});
  return (
    <Modal
      open={Boolean(result)}
      title={label}
      onCancel={onClose}
      onOk={onClose}
      okText={t("actions.resultDone")}
      cancelButtonProps={{ style: { display: "none" } }}
      destroyOnHidden
    >
      {/* Only a true warning: a PUK can be looked up again, a port-out PIN or an activation code cannot. */}
      {action.result?.once && (
        <Alert type="warning" showIcon message={t("actions.shownOnce")} style={{ marginBottom: 12 }} />
      )}
      {/* Label above value: an eSIM QR code keeps the whole dialog width on a 360 px phone. */}
      {result && (
        <Descriptions column={1} layout="vertical" bordered size="small" data-testid="action-result">
          {fields.map(([field, spec]) => {
            const value = result[field];
            if (value === null || value === undefined) return null;
            // A secret or a QR code is text the server made (a PIN, an activation code).
            const secret = value as string | number;
            const text = String(secret);
            let shown;
            if (spec.kind === "secret") {
              shown = (
                <Typography.Text
                  code
                  copyable
                  style={{ fontSize: 24, letterSpacing: 4 }}
                  data-testid={`result-${field}`}
                >
                  {text}
                </Typography.Text>
              );
            } else if (spec.kind === "qrCode") {
              const install = esimInstallLink(text, navigator.userAgent);
              shown = (
                <Space direction="vertical" align="center" style={{ width: "100%" }}>
                  {install && (
                    <Button
                      type="primary"
                      href={install}
                      target="_blank"
                      rel="noopener noreferrer"
                      data-testid="esim-install"
                    >
                      {t("actions.installEsim")}
                    </Button>
                  )}
                  <QRCode value={text} size={200} bordered={false} aria-label={t("actions.qrLabel")} />
                  <Typography.Text
                    copyable
                    style={{ wordBreak: "break-all", fontSize: 12 }}
                    data-testid={`result-${field}`}
                  >
                    {text}
                  </Typography.Text>
                </Space>
              );
            } else shown = fieldText(field, spec, result);
            return (
              <Descriptions.Item key={field} label={t(spec.label)}>
                {shown}
              </Descriptions.Item>
            );
          })}
        </Descriptions>
      )}
    </Modal>
  );
}
