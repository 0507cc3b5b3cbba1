import { useState, useSyncExternalStore } from "react";
import { useGetIdentity, useList } from "@refinedev/core";
import { App, FloatButton, Modal } from "antd";
import { CustomerServiceOutlined } from "@ant-design/icons";
import { runtimeConfig } from "../../config/runtime";
import { getConsent, hasConsent, setConsent, subscribeConsent } from "../../consent/consent";
import { openChat } from "../../consent/thirdPartyScripts";
import { translate as t } from "../../i18n";
import type { SessionUser } from "../../providers/session";

/**
 * The help button of a build with a CRM chat (VITE_CRM_CHAT_SCRIPT_URL): the widget loads on the
 * first press, after consent to chat, and is told the subscriber's name and account id (never a
 * token). A build without the chat has no button.
 */
export function HelpChatButton() {
  const { data: user } = useGetIdentity<SessionUser>();
  if (!runtimeConfig.switches.crmChatScriptUrl || user?.role !== "subscriber") return null;
  return <SubscriberHelpChat />;
}

function SubscriberHelpChat() {
  useSyncExternalStore(subscribeConsent, getConsent, () => null);
  const { message } = App.useApp();
  const [asking, setAsking] = useState(false);
  const { result } = useList<{ id: string; name: string }>({
    resource: "accounts",
    pagination: { currentPage: 1, pageSize: 1 },
    sorters: [{ field: "createdAt", order: "asc" }],
  });
  const account = result.data[0];

  const open = () =>
    openChat(account ? { name: account.name, accountId: account.id } : null).catch(() => {
      void message.error(t("switches.chat.failed"));
    });

  return (
    <>
      <FloatButton
        icon={<CustomerServiceOutlined />}
        type="primary"
        tooltip={t("switches.chat.button")}
        aria-label={t("switches.chat.button")}
        onClick={() => (hasConsent("chat") ? void open() : setAsking(true))}
      />
      <Modal
        open={asking}
        title={t("switches.consent.chat.label")}
        okText={t("switches.chat.allow")}
        cancelText={t("switches.chat.cancel")}
        onCancel={() => setAsking(false)}
        onOk={() => {
          setAsking(false);
          setConsent({ analytics: getConsent()?.analytics ?? false, chat: true });
          void open();
        }}
      >
        {t("switches.chat.askConsent")}
      </Modal>
    </>
  );
}
