import { useList } from "@refinedev/core";
import { Badge, Button } from "antd";
import { BellOutlined } from "@ant-design/icons";
import { Link } from "react-router";
import { translate as t } from "../i18n";

/** The header's bell: how many notices are unread (kept live), and the way to the inbox. */
export function NotificationBell() {
  const { result } = useList({
    resource: "notifications",
    filters: [{ field: "read", operator: "eq", value: false }],
    pagination: { currentPage: 1, pageSize: 1 },
  });
  const unread = result?.total ?? 0;
  const label = `${t("resources.notifications.label")}: ${t("resources.notifications.unread", { count: unread })}`;
  return (
    <Link to="/notifications" aria-label={label} title={label} data-testid="notification-bell">
      <Badge count={unread} size="small" overflowCount={99}>
        <Button shape="circle" icon={<BellOutlined />} tabIndex={-1} aria-hidden />
      </Badge>
    </Link>
  );
}
