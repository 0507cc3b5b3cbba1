import { useEffect, useState } from "react";
import { Alert, App, Button, Card, Skeleton, Space, Switch, Typography } from "antd";
import { translate as t } from "../../i18n";
import { dataProvider } from "../../providers/dataProvider";
import { ALERT_KINDS, type NotificationPreferences } from "../../resources/notificationPreferences";

const CHANNELS = ["email", "sms"] as const;

/** How usage alerts reach the subscriber beyond the inbox: email and SMS, per alert (80 % and 100 %). */
export function NotificationPreferencesCard() {
  const { message } = App.useApp();
  const [saved, setSaved] = useState<NotificationPreferences | null>(null);
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dataProvider.custom!<NotificationPreferences>({ url: "/me/notification-preferences", method: "get" })
      .then(({ data: p }) => {
        setSaved(p);
        setDraft(p);
      })
      .catch((e: { message?: string }) => setError(e.message ?? ""));
  }, []);
  const save = async () => {
    setBusy(true);
    try {
      const { data: next } = await dataProvider.custom!<NotificationPreferences>({
        url: "/me/notification-preferences",
        method: "put",
        payload: draft,
      });
      setSaved(next);
      setDraft(next);
      void message.success(t("preferences.saved"));
    } catch (e) {
      setError((e as { message?: string }).message ?? "");
    } finally {
      setBusy(false);
    }
  };
  const changed = JSON.stringify(saved) !== JSON.stringify(draft);
  return (
    <Card title={t("preferences.title")} id="notification-preferences">
      <Typography.Paragraph type="secondary">{t("preferences.intro")}</Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      {!draft ? (
        !error && <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          {ALERT_KINDS.map((kind) => (
            <fieldset key={kind} style={{ border: 0, margin: 0, padding: 0 }}>
              <legend>
                <Typography.Text strong>{t(`preferences.kind.${kind}`)}</Typography.Text>
              </legend>
              <Space wrap size="large">
                {CHANNELS.map((channel) => (
                  <Space key={channel} align="center">
                    <Switch
                      id={`pref-${kind}-${channel}`}
                      checked={draft[kind][channel]}
                      onChange={(on) => setDraft({ ...draft, [kind]: { ...draft[kind], [channel]: on } })}
                    />
                    <label htmlFor={`pref-${kind}-${channel}`}>{t(`preferences.channel.${channel}`)}</label>
                  </Space>
                ))}
              </Space>
            </fieldset>
          ))}
          <Button type="primary" disabled={!changed} loading={busy} onClick={() => void save()}>
            {t("preferences.save")}
          </Button>
        </Space>
      )}
    </Card>
  );
}
