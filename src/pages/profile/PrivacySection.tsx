import { useState } from "react";
import { useCan, useCreate, useList } from "@refinedev/core";
import { App, Button, Card, Input, Modal, Space, Typography } from "antd";
import { DownloadOutlined } from "@ant-design/icons";
import { translate as t } from "../../i18n";
import type { ApiError } from "../../providers/apiClient";
import { useResourceAction } from "../../components/actions/useResourceAction";
import { RETAINED_BY_LAW } from "../../resources/privacyRequests";
import { downloadMyData } from "./privacyApi";

const RESOURCE = "privacy-requests";

/**
 * "Your data": download everything the portal holds about you (a zip), and ask to close the account
 * and delete the data (a privacy request that care completes), withdrawable while it is open. Says
 * what the law makes the operator keep.
 */
export function PrivacySection() {
  const { message, modal } = App.useApp();
  const { mutateAsync: create } = useCreate();
  const [downloading, setDownloading] = useState(false);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState("");
  const [sending, setSending] = useState(false);
  const { data: canAsk } = useCan({ resource: RESOURCE, action: "create" });
  const { result } = useList({
    resource: RESOURCE,
    filters: [{ field: "status", operator: "eq", value: "open" }],
    pagination: { pageSize: 1 },
    queryOptions: { enabled: Boolean(canAsk?.can) },
  });
  const open = result?.data?.[0] as { id: string; status: string; createdAt: string } | undefined;
  // Withdraw is the request's declared action: offered while the declaration's `when` holds.
  const withdrawal = useResourceAction(RESOURCE, "withdraw", open);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch (error) {
      void message.error((error as ApiError).message ?? t("privacy.downloadFailed"));
    } finally {
      setDownloading(false);
    }
  };

  const send = async () => {
    setSending(true);
    try {
      // The data provider's create; Refine reads the requests' list again.
      await create({
        resource: RESOURCE,
        values: { kind: "close_and_delete", note: note.trim() || null },
        successNotification: false,
        errorNotification: false,
      });
      setAsking(false);
      setNote("");
      void message.success(t("privacy.requestSent"));
    } catch (error) {
      void message.error((error as ApiError).message);
    } finally {
      setSending(false);
    }
  };

  const withdraw = async () => {
    // A confirmation the declaration gives is asked first.
    const confirmation = withdrawal.confirmText();
    if (confirmation && !(await modal.confirm({ content: confirmation, okText: withdrawal.label }))) return;
    try {
      await withdrawal.run();
      void message.success(t("privacy.withdrawn"));
    } catch (error) {
      void message.error((error as ApiError).message);
    }
  };

  return (
    <Card title={t("privacy.title")} id="privacy">
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        <Typography.Paragraph style={{ margin: 0 }}>{t("privacy.exportIntro")}</Typography.Paragraph>
        <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => void download()} block>
          {t("privacy.download")}
        </Button>
        {canAsk?.can ? (
          open ? (
            <Space direction="vertical" style={{ width: "100%" }}>
              <Typography.Text role="status">
                {t("privacy.requestOpen", { date: new Date(open.createdAt).toLocaleDateString() })}
              </Typography.Text>
              {withdrawal.available && (
                <Button onClick={() => void withdraw()} loading={withdrawal.running} block>
                  {t("privacy.withdraw")}
                </Button>
              )}
            </Space>
          ) : (
            <Button danger onClick={() => setAsking(true)} block>
              {t("privacy.close")}
            </Button>
          )
        ) : null}
        <details>
          <summary>{t("privacy.keptTitle")}</summary>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t("privacy.keptIntro")}
          </Typography.Paragraph>
          <ul>
            {RETAINED_BY_LAW.map((item) => (
              <li key={item}>{t(`privacy.kept.${item.split(":")[0]}`)}</li>
            ))}
          </ul>
        </details>
      </Space>
      <Modal
        open={asking}
        title={t("privacy.confirmTitle")}
        okText={t("privacy.confirm")}
        okButtonProps={{ danger: true, loading: sending }}
        cancelText={t("privacy.cancel")}
        onOk={() => void send()}
        onCancel={() => setAsking(false)}
      >
        <Typography.Paragraph>{t("privacy.confirmText")}</Typography.Paragraph>
        <label htmlFor="privacy-note">{t("privacy.note")}</label>
        <Input.TextArea
          id="privacy-note"
          value={note}
          maxLength={1000}
          rows={3}
          onChange={(e) => setNote(e.target.value)}
        />
      </Modal>
    </Card>
  );
}
