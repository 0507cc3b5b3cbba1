import { useList } from "@refinedev/core";
import { Space, Table, Typography } from "antd";
import { useState } from "react";
import { linesResource, type Line } from "../../../resources/lines";
import { translate as t } from "../../../i18n";
import { formatMsisdn } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { RecordActions } from "../../../components/actions/RecordActions";
import type { Subscriber } from "../../../resources/subscribers";
import { SECTION_PAGE_SIZE } from "./types";

/** The account's lines with status, plan and SIM; each line's actions (suspend, restore, SIM swap…) ask staff for a reason. */
export function LinesSection({ subscriber }: { subscriber: Subscriber }) {
  const [page, setPage] = useState(1);
  const { result, query } = useList<Line>({
    resource: "lines",
    filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
    sorters: [{ field: "msisdn", order: "asc" }],
    pagination: { currentPage: page, pageSize: SECTION_PAGE_SIZE },
  });
  return (
    <Table<Line>
      rowKey="id"
      size="small"
      loading={query.isLoading}
      dataSource={result?.data ?? []}
      pagination={{ current: page, pageSize: SECTION_PAGE_SIZE, total: result?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      columns={[
        { title: t("fields.msisdn"), dataIndex: "msisdn", render: (msisdn: string) => <Typography.Text strong>{formatMsisdn(msisdn)}</Typography.Text> },
        { title: t("fields.plan"), dataIndex: "planName" },
        {
          title: t("fields.status"),
          dataIndex: "status",
          render: (status: string, line) => (
            <span data-testid="line-status">
              <StatusTag tone={toneOfStatus(status)}>{t(`enums.status.${status}`)}</StatusTag>
              {line.suspendReason && <Typography.Text type="secondary"> {t(`enums.suspendReason.${line.suspendReason}`)}</Typography.Text>}
            </span>
          ),
        },
        { title: t("fields.simType"), dataIndex: "simType", render: (sim: string, line) => `${t(`enums.simType.${sim}`)} ·${line.iccid.slice(-4)}` },
        { title: t("list.actions"), key: "actions", render: (_: unknown, line) => <Space wrap size={4}><RecordActions resource={linesResource} record={line} /></Space> },
      ]}
    />
  );
}
