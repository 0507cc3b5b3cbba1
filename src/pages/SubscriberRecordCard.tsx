import { DeleteButton } from "@refinedev/antd";
import { Card, Space, Typography } from "antd";
import { Link } from "react-router";
import { cardTexts, type DeclaredResource, type SubscriberCard } from "../resources/define";
import { translate as t } from "../i18n";
import { fieldText } from "../components/fieldText";
import { RecordActions } from "../components/actions/RecordActions";
import { RecordDownloads } from "../components/actions/RecordDownloads";

type AnyRecord = Record<string, unknown> & { id: string };

/** A stored value as it is (a number, a string, a yes/no); anything else has no bare form. */
const rawText = (value: unknown): string =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";

/**
 * One record in a subscriber's list on a phone, as its declaration's `subscriberCard` words it: a
 * title that opens the record, a few sentences, and the buttons of what can be done with it there
 * ("Make default", "Remove"). No field labels, ids or enum values: the fields fill the sentences as
 * the portal shows them (money, days, numbers in the reader's format).
 */
export function SubscriberRecordCard({
  resource,
  card,
  record,
}: {
  resource: DeclaredResource;
  card: SubscriberCard<string>;
  record: AnyRecord;
}) {
  // Each field as the portal shows it ("$70.36", "Nov 12, 2026"), and as stored under "<field>.raw"
  // where a sentence wants the bare value (a card's expiry "11/2039", not "2,039").
  const words = Object.fromEntries(
    Object.entries(resource.fields).flatMap(([name, spec]) => [
      [name, fieldText(name, spec, record)],
      [`${name}.raw`, rawText(record[name])],
    ]),
  );
  const [title = resource.label] = cardTexts(card.title, record);
  const titleText = t(title, words);
  const downloadable = Boolean(resource.downloads?.length);
  return (
    <Card
      size="small"
      style={{ width: "100%" }}
      title={<Link to={`/${resource.name}/show/${record.id}`}>{titleText}</Link>}
      extra={downloadable ? <RecordDownloads resource={resource} record={record} compact /> : undefined}
    >
      {cardTexts(card.lines, record).map((line) => (
        <Typography.Paragraph key={line} style={{ margin: "2px 0" }}>
          {t(line, words)}
        </Typography.Paragraph>
      ))}
      {(card.actions?.length || card.remove) && (
        <Space wrap style={{ marginTop: 8 }}>
          {card.actions?.length ? <RecordActions resource={resource} record={record} only={card.actions} /> : null}
          {card.remove && (
            <DeleteButton
              resource={resource.name}
              recordItemId={record.id}
              accessControl={{ enabled: true, hideIfUnauthorized: true }}
              confirmTitle={t("list.removeConfirm", { title: titleText })}
              confirmOkText={t("list.remove")}
              confirmCancelText={t("actions.goBack")}
              successNotification={{ type: "success", message: t("list.removed", { title: titleText }) }}
            >
              {t("list.remove")}
            </DeleteButton>
          )}
        </Space>
      )}
    </Card>
  );
}
