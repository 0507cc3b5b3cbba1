import { Card, List, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { Money } from "../../resources/common";
import { formatDate, formatMoney, formatMsisdn } from "../format";

/** What an action's preview answers (server/engine/actionRoutes.ts quoteSchema). */
export interface QuoteData {
  summary: string;
  params?: Record<string, string | number>;
  lines: { label: string; params?: Record<string, string | number>; amount?: Money }[];
  total?: Money | null;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Values as people read them: a phone number in its national format, a day as the locale writes it. */
export const readable = (params: Record<string, string | number> = {}) =>
  Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value !== "string"
        ? value
        : key === "msisdn"
          ? formatMsisdn(value)
          : ISO_DAY.test(value)
            ? formatDate(value)
            : value,
    ]),
  );

/** The server's quote of an action, line by line, before the person confirms it. */
export function QuoteView({ quote }: { quote: QuoteData }) {
  return (
    <Card size="small" title={t("actions.quoteTitle")} data-testid="action-quote" style={{ marginTop: 8 }}>
      <Typography.Paragraph strong>{t(quote.summary, readable(quote.params))}</Typography.Paragraph>
      <List
        size="small"
        dataSource={quote.lines}
        renderItem={(line) => (
          <List.Item
            style={{ paddingInline: 0 }}
            extra={line.amount ? <span>{formatMoney(line.amount)}</span> : undefined}
          >
            {t(line.label, readable({ ...quote.params, ...line.params }))}
          </List.Item>
        )}
      />
      {quote.total && (
        <Typography.Paragraph strong style={{ textAlign: "right", marginTop: 8, marginBottom: 0 }}>
          {quote.total.amount < 0
            ? // A refund reads as money coming back, not as a negative total.
              t("actions.totalBack", { amount: formatMoney({ ...quote.total, amount: -quote.total.amount }) })
            : t("actions.total", { amount: formatMoney(quote.total) })}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
