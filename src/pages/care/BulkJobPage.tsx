import { useOne } from "@refinedev/core";
import { Alert, Card, Descriptions, Progress, Table, Tag, Typography } from "antd";
import { Link, useParams } from "react-router";
import { bulkJobsResource, type BulkJob } from "../../resources/bulkJobs";
import { translate as t } from "../../i18n";
import { formatDateTime, formatMsisdn } from "../../components/format";
import { maskTail } from "../../components/fieldText";
import { bulkItemErrorText } from "./bulkItemText";
import { RecordActions } from "../../components/actions/RecordActions";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";

type Item = BulkJob["items"][number];

const ITEM_COLORS: Record<Item["status"], string> = {
  pending: "default",
  succeeded: "green",
  failed: "red",
  cancelled: "orange",
};

/**
 * The item's line by its number: a link to the line when it is one (an import row names a number
 * that may not be a line yet), the row of the file for an import.
 */
function ItemLine({ job, item }: { job: BulkJob; item: Item }) {
  const number = item.msisdn ? formatMsisdn(item.msisdn) : null;
  if (job.kind === "import-lines") {
    const row = /^row (\d+)$/.exec(item.targetId)?.[1];
    return <>{[number, row ? t("bulk.row", { row }) : null].filter(Boolean).join(" · ") || item.targetId}</>;
  }
  return <Link to={`/lines/show/${item.targetId}`}>{number ?? t("bulk.unknownLine")}</Link>;
}

/**
 * One bulk job: its progress bar (kept live: every item the worker finishes publishes an update),
 * the cancel action while it runs, and each line's result.
 */
export default function BulkJobPage() {
  const { id = "" } = useParams();
  const { result: job, query } = useOne<BulkJob>({ resource: "bulk-jobs", id, errorNotification: drawnWhenNotFound });
  if (query.isError) return <Alert type="error" showIcon message={t("show.notFound")} />;
  if (!job) return <Card loading />;
  const percent = job.total ? Math.round((job.done / job.total) * 100) : 100;
  const status =
    job.status === "cancelled"
      ? "exception"
      : job.status === "completed"
        ? job.failed
          ? "normal"
          : "success"
        : "active";
  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
          {t(`enums.bulkKind.${job.kind}`)}
        </Typography.Title>
      }
      extra={<RecordActions resource={bulkJobsResource} record={job} />}
    >
      <Progress
        percent={percent}
        status={status}
        aria-label={t("resources.bulk-jobs.progress", { done: job.done, total: job.total, failed: job.failed })}
      />
      <Typography.Paragraph role="status" aria-live="polite">
        {t("resources.bulk-jobs.progress", { done: job.done, total: job.total, failed: job.failed })}
      </Typography.Paragraph>
      <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t("fields.status")}>{t(`enums.bulkStatus.${job.status}`)}</Descriptions.Item>
        <Descriptions.Item label={t("fields.reason")}>{job.reason}</Descriptions.Item>
        <Descriptions.Item label={t("fields.createdAt")}>{formatDateTime(job.createdAt)}</Descriptions.Item>
      </Descriptions>
      <Table
        size="small"
        rowKey="position"
        dataSource={job.items}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: true }}
        columns={[
          { title: "#", dataIndex: "position", width: 60, render: (p: number) => p + 1 },
          {
            title: t("fields.msisdn"),
            key: "line",
            render: (_: unknown, item: Item) => <ItemLine job={job} item={item} />,
          },
          {
            title: t("fields.iccid"),
            dataIndex: "iccid",
            render: (iccid: string | null) => (iccid ? maskTail(iccid) : "—"),
          },
          {
            title: t("bulk.outcome"),
            dataIndex: "status",
            render: (s: Item["status"]) => <Tag color={ITEM_COLORS[s]}>{t(`enums.bulkItemStatus.${s}`)}</Tag>,
          },
          { title: t("fields.bulkItemError"), dataIndex: "error", render: (e: string | null) => bulkItemErrorText(e) },
        ]}
      />
    </Card>
  );
}
