import { createElement } from "react";
import type { NotificationProvider } from "@refinedev/core";
import { App } from "antd";
import { CloseOutlined } from "@ant-design/icons";
import { translate as t } from "../i18n";

/**
 * Refine's success and error messages as antd notifications, from the App context so they follow
 * the theme and language. (The portal never uses undoable mutations, so there is no undo toast.)
 */
export function useNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type }) =>
      notification.open({
        key,
        description: message,
        message: description ?? null,
        type: type === "progress" ? "info" : type,
        // The close button's name in the page's language (antd's own is always "Close").
        closable: {
          "aria-label": t("form.close"),
          closeIcon: createElement(CloseOutlined, { className: "ant-notification-notice-close-icon" }),
        },
      }),
    close: (key) => notification.destroy(key),
  };
}
