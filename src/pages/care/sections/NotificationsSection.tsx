import { useApiUrl, useCustom } from "@refinedev/core";
import { Table } from "antd";
import { useState } from "react";
import type { Notification } from "../../../resources/notifications";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { noticeText } from "../../../components/noticeText";
import { SECTION_PAGE_SIZE } from "./types";

/** What the holder was told, newest first, and whether they read it (GET /subscribers/{id}/notifications). */
export function NotificationsSection({ subscriber }: { subscriber: Subscriber }) {
  const apiUrl = useApiUrl();
  const [page, setPage] = useState(1);
  const { result, query } = useCustom<{ data: Notification[]; total: number }>({
    url: `${apiUrl}/subscribers/${subscriber.id}/notifications?page=${page}&pageSize=${SECTION_PAGE_SIZE}`,
    method: "get",
  });
  const body = result?.data;
  return (
    <Table<Notification>
      rowKey="id"
      size="small"
      loading={query.isLoading}
      dataSource={body?.data ?? []}
      pagination={{ current: page, pageSize: SECTION_PAGE_SIZE, total: body?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        { title: t("care.sections.notice"), key: "text", render: (_: unknown, notice) => noticeText(notice) },
        { title: t("care.sections.read"), dataIndex: "read", render: (read: boolean) => (read ? t("care.yes") : t("care.no")) },
      ]}
    />
  );
}
