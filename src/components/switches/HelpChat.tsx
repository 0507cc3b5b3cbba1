import { useState, useSyncExternalStore } from "react";
import CustomerServiceOutlined from "@ant-design/icons-svg/es/asn/CustomerServiceOutlined";
import { runtimeConfig } from "../../config/runtime";
import { getConsent, hasConsent, setConsent, subscribeConsent } from "../../consent/consent";
import { openChat } from "../../consent/thirdPartyScripts";
import { translate as t } from "../../i18n";
import { dataProvider } from "../../providers/dataProvider";
import type { SessionUser } from "../../providers/session";
import { SvgIcon } from "../SvgIcon";
import "./helpChat.css";

/**
 * The help button of a build with a CRM chat (VITE_CRM_CHAT_SCRIPT_URL): the widget loads on the
 * first press, after consent to chat, and is told the subscriber's name and account id (never a
 * token). A build without the chat has no button. Plain React and CSS (a native dialog asks for
 * consent), so the light pages on a phone carry it as the portal does.
 */
export function HelpChat({ user }: { user: SessionUser | undefined }) {
  if (!runtimeConfig.switches.crmChatScriptUrl || user?.role !== "subscriber") return null;
  return <SubscriberHelpChat />;
}

/** The person's first account, as the chat names it: read on the press, not on every page. */
async function firstAccount(): Promise<{ name: string; accountId: string } | null> {
  const { data } = await dataProvider.getList<{ id: string; name: string }>({
    resource: "accounts",
    pagination: { currentPage: 1, pageSize: 1 },
    sorters: [{ field: "createdAt", order: "asc" }],
  });
  const account = data[0];
  return account ? { name: account.name, accountId: account.id } : null;
}

function SubscriberHelpChat() {
  useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const [asking, setAsking] = useState(false);
  const [failed, setFailed] = useState(false);

  const open = () => {
    setFailed(false);
    firstAccount()
      .then(openChat)
      .catch(() => setFailed(true));
  };

  return (
    <>
      <button
        type="button"
        className="help-chat__button"
        aria-label={t("switches.chat.button")}
        title={t("switches.chat.button")}
        onClick={() => (hasConsent("chat") ? open() : setAsking(true))}
      >
        <SvgIcon icon={CustomerServiceOutlined} />
      </button>
      {failed && (
        <p role="alert" className="help-chat__failed">
          {t("switches.chat.failed")}
        </p>
      )}
      {/* In the page only while it asks: a closed dialog's heading would still be one of the page's. */}
      {asking && (
        <dialog
          ref={(dialog) => {
            if (dialog && !dialog.open) dialog.showModal();
          }}
          className="help-chat__ask"
          aria-labelledby="help-chat-ask-title"
          onClose={() => setAsking(false)}
        >
          <h2 id="help-chat-ask-title">{t("switches.consent.chat.label")}</h2>
          <p>{t("switches.chat.askConsent")}</p>
          <div className="help-chat__actions">
            <button type="button" className="help-chat__secondary" onClick={() => setAsking(false)}>
              {t("switches.chat.cancel")}
            </button>
            <button
              type="button"
              className="help-chat__primary"
              onClick={() => {
                setAsking(false);
                setConsent({ analytics: getConsent()?.analytics ?? false, chat: true });
                open();
              }}
            >
              {t("switches.chat.allow")}
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}
