import type { Notification } from "../../../resources/notifications";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { noticeText } from "../../../components/noticeText";
import { PagedSection } from "./PagedSection";

/** What the holder was told, newest first, and whether they read it (GET /subscribers/{id}/notifications). */
export function NotificationsSection({ subscriber }: { subscriber: Subscriber }) {
  return (
    <PagedSection<Notification>
      source={{ path: `/subscribers/${subscriber.id}/notifications` }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        { title: t("care.sections.notice"), key: "text", render: (_: unknown, notice) => noticeText(notice) },
        {
          title: t("care.sections.read"),
          dataIndex: "read",
          render: (read: boolean) => (read ? t("care.yes") : t("care.no")),
        },
      ]}
    />
  );
}
