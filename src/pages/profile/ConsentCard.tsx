import { useState, useSyncExternalStore } from "react";
import { App, Button, Card, Space, Switch, Typography } from "antd";
import {
  consentCategories,
  consentNeeded,
  getConsent,
  setConsent,
  subscribeConsent,
  type ConsentCategory,
} from "../../consent/consent";
import { translate as t } from "../../i18n";

/** The consent choices, changeable at any time (the banner asks only once). Stored in the browser and on the profile (ConsentSync). */
export function ConsentCard() {
  const choice = useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const { message } = App.useApp();
  const [draft, setDraft] = useState<Record<ConsentCategory, boolean>>({
    analytics: choice?.analytics ?? false,
    chat: choice?.chat ?? false,
  });
  // A new stored choice (another tab, the banner) resets the draft: adjusted while rendering, not in an effect.
  const [draftOf, setDraftOf] = useState(choice);
  if (draftOf !== choice) {
    setDraftOf(choice);
    setDraft({ analytics: choice?.analytics ?? false, chat: choice?.chat ?? false });
  }
  if (!consentNeeded) return null;
  const changed = !choice || draft.analytics !== choice.analytics || draft.chat !== choice.chat;
  return (
    <Card title={t("switches.consent.title")} id="consent">
      <Typography.Paragraph>{t("switches.consent.intro")}</Typography.Paragraph>
      <Space direction="vertical" size="middle" style={{ width: "100%" }}>
        {consentCategories.map((category) => (
          <Space key={category} align="start">
            <Switch
              id={`consent-${category}`}
              checked={draft[category]}
              onChange={(on) => setDraft({ ...draft, [category]: on })}
              aria-describedby={`consent-${category}-detail`}
            />
            <label htmlFor={`consent-${category}`}>
              <Typography.Text strong>{t(`switches.consent.${category}.label`)}</Typography.Text>
              <br />
              <Typography.Text type="secondary" id={`consent-${category}-detail`}>
                {t(`switches.consent.${category}.detail`)}
              </Typography.Text>
            </label>
          </Space>
        ))}
        <Button
          type="primary"
          disabled={!changed}
          onClick={() => {
            setConsent(draft);
            void message.success(t("switches.consent.saved"));
          }}
        >
          {t("switches.consent.save")}
        </Button>
      </Space>
    </Card>
  );
}
