import BellOutlined from "@ant-design/icons-svg/es/asn/BellOutlined";
import { translate as t } from "../i18n";
import { SvgIcon } from "./SvgIcon";
import { PlainLink, type Navigate } from "./PlainLink";
import "./bellLink.css";

/**
 * The header's bell as plain markup: the unread count on it, the inbox behind it. The portal's
 * NotificationBell and the light home both draw it; each counts the unread notices its own way.
 */
export function BellLink({ unread, navigate }: { unread: number; navigate: Navigate }) {
  const label = t("notifications.bell", { count: unread });
  return (
    <PlainLink
      to="/notifications"
      navigate={navigate}
      className="bell-link"
      aria-label={label}
      title={label}
      data-testid="notification-bell"
      data-unread={unread}
    >
      <SvgIcon icon={BellOutlined} />
      {unread > 0 && (
        <span className="bell-link__count" aria-hidden>
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </PlainLink>
  );
}
