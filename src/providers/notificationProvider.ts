import type { NotificationProvider } from "@refinedev/core";
import { App } from "antd";

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
      }),
    close: (key) => notification.destroy(key),
  };
}
