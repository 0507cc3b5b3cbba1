import { useCustomMutation, useInvalidate, useList, useApiUrl } from "@refinedev/core";
import { Alert, Button, Card, Empty, List, Space, Typography } from "antd";
import { Link } from "react-router";
import type { Notification } from "../../resources/notifications";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";
import { noticeText } from "../../components/noticeText";

/** The inbox: everything that happened to the reader's lines and orders, newest first, unread in bold; kept live. */
export default function NotificationsPage() {
  const { result, query } = useList<Notification>({
    resource: "notifications",
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: 1, pageSize: 50 },
  });
  const apiUrl = useApiUrl();
  const invalidate = useInvalidate();
  const { mutateAsync, mutation } = useCustomMutation();
  const notices = result?.data ?? [];
  const unread = notices.filter((n) => !n.read);

  const markRead = async (ids: string[]) => {
    for (const id of ids) {
      await mutateAsync({
        url: `${apiUrl}/notifications/${id}/actions/mark-read`,
        method: "post",
        values: {},
        successNotification: false,
      });
    }
    await invalidate({ resource: "notifications", invalidates: ["list"] });
  };

  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
          {t("resources.notifications.label")}
        </Typography.Title>
      }
      extra={
        unread.length > 0 && (
          <Button onClick={() => void markRead(unread.map((n) => n.id))} loading={mutation.isPending}>
            {t("resources.notifications.markAllRead")}
          </Button>
        )
      }
    >
      {query.isError && (
        <Alert type="error" showIcon message={t("list.error", { message: query.error?.message ?? "" })} />
      )}
      <List<Notification>
        loading={query.isLoading}
        dataSource={notices}
        locale={{ emptyText: <Empty description={t("resources.notifications.empty")} /> }}
        renderItem={(notice) => (
          <List.Item
            data-testid="notice"
            data-unread={!notice.read}
            actions={
              notice.read
                ? []
                : [
                    <Button key="read" size="small" onClick={() => void markRead([notice.id])}>
                      {t("resources.notifications.markRead")}
                    </Button>,
                  ]
            }
          >
            <Space direction="vertical" size={0}>
              <Typography.Text strong={!notice.read}>
                {notice.link ? <Link to={notice.link}>{noticeText(notice)}</Link> : noticeText(notice)}
              </Typography.Text>
              <Typography.Text type="secondary">{formatDateTime(notice.createdAt)}</Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
