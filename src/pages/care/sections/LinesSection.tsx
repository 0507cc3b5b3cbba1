import { Space, Typography } from "antd";
import { linesResource, type Line } from "../../../resources/lines";
import { translate as t } from "../../../i18n";
import { formatMsisdn } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { RecordActions } from "../../../components/actions/RecordActions";
import type { Subscriber } from "../../../resources/subscribers";
import { LineCycleCell } from "./LineCycleCell";
import { PagedSection } from "./PagedSection";

/** What care does most on a call (stop a lost phone, bring it back); the rest wait under "More actions" so a row fits at 1280 px. */
const LINE_PRIMARY_ACTIONS = ["suspend", "restore"] as const;

/** The account's lines with status, plan and SIM; each line's actions (suspend, restore, SIM swap…) ask staff for a reason. */
export function LinesSection({ subscriber }: { subscriber: Subscriber }) {
  return (
    <PagedSection<Line>
      source={{
        resource: "lines",
        filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
        sorters: [{ field: "msisdn", order: "asc" }],
      }}
      columns={[
        {
          title: t("fields.msisdn"),
          dataIndex: "msisdn",
          render: (msisdn: string) => <Typography.Text strong>{formatMsisdn(msisdn)}</Typography.Text>,
        },
        { title: t("fields.plan"), dataIndex: "planName" },
        {
          title: t("fields.status"),
          dataIndex: "status",
          render: (status: string, line) => (
            <span data-testid="line-status">
              <StatusTag tone={toneOfStatus(status)}>{t(`enums.status.${status}`)}</StatusTag>
              {line.suspendReason && (
                <Typography.Text type="secondary"> {t(`enums.suspendReason.${line.suspendReason}`)}</Typography.Text>
              )}
            </span>
          ),
        },
        { title: t("care.cycle.title"), key: "cycle", render: (_: unknown, line) => <LineCycleCell line={line} /> },
        {
          title: t("fields.simType"),
          dataIndex: "simType",
          render: (sim: string, line) => `${t(`enums.simType.${sim}`)}${line.iccid ? ` ·${line.iccid.slice(-4)}` : ""}`,
        },
        {
          title: t("list.actions"),
          key: "actions",
          render: (_: unknown, line) => (
            <Space size={4}>
              <RecordActions resource={linesResource} record={line} primary={LINE_PRIMARY_ACTIONS} />
            </Space>
          ),
        },
      ]}
    />
  );
}
