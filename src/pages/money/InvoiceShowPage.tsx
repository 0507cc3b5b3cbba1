import { useGetIdentity, useShow } from "@refinedev/core";
import { Result, Skeleton } from "antd";
import { useParams } from "react-router";
import { translate as t } from "../../i18n";
import type { ResourceDefinition } from "../../resources/define";
import type { Invoice } from "../../resources/invoices";
import type { SessionUser } from "../../providers/session";
import { RecordDownloads } from "../../components/actions/RecordDownloads";
import { formatDate, formatDateTime, formatMoney } from "../../components/format";
import { TONES } from "../../components/statusTones";
import { ResourceShowPage } from "../ResourceShowPage";
import { BillRow } from "../subscriber/BillRow";
import { BILL_TONES } from "../subscriber/billWords";
import "../subscriber/subscriber.css";

/** A bill: for its subscriber, what it is made of, its status in colour and Pay; for staff, the generic record page. */
export default function InvoiceShowPage({ resource }: { resource: ResourceDefinition<any, any> }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return <Skeleton active />;
  if (user.role !== "subscriber" || !id) return <ResourceShowPage resource={resource} />;
  return <SubscriberBill id={id} resource={resource} />;
}

function SubscriberBill({ id, resource }: { id: string; resource: ResourceDefinition<any, any> }) {
  const { query, result: bill } = useShow<Invoice>({ resource: "invoices", id });
  if (query.isError) return <Result status="404" title={t("show.notFound")} />;
  if (!bill) return <Skeleton active />;
  return (
    <div className="sub-page">
      <div className="sub-card__row">
        <h1 className="sub-page__title">{t("subscriber.money.billFor", { start: formatDate(bill.periodStart), end: formatDate(bill.periodEnd) })}</h1>
        <span className="bill-row__status" style={TONES[BILL_TONES[bill.status]]} data-testid="bill-status">
          {t(`subscriber.money.billStatus.${bill.status}`)}
        </span>
      </div>
      <section className="sub-card" aria-labelledby="bill-total">
        <h2 className="sub-card__title" id="bill-total">{t("subscriber.bill.total")}</h2>
        <p className="sub-card__big">{formatMoney(bill.total)}</p>
        <p className="sub-card__muted" style={{ marginTop: 0 }}>
          {bill.status === "paid" && bill.paidAt
            ? t("subscriber.bill.paidOn", { time: formatDateTime(bill.paidAt) })
            : bill.status === "void"
              ? t("subscriber.bill.voided", { reason: bill.voidReason ?? "" })
              : t("subscriber.bill.due", { date: formatDate(bill.dueOn), number: bill.number })}
        </p>
        {/* Pay while owed (the declared action, a card added in the same dialog when none is saved). */}
        <BillRow bill={bill} payOnly />
        <div className="sub-card__actions">
          <RecordDownloads resource={resource} record={bill as never} />
        </div>
      </section>
      <section className="sub-card" aria-labelledby="bill-items">
        <h2 className="sub-card__title" id="bill-items">{t("subscriber.bill.items")}</h2>
        <ul className="movement-list" data-testid="bill-items">
          {bill.items.map((item, i) => (
            <li key={i}>
              <span>{item.description}</span>
              <span className="movement-list__debit">{formatMoney(item.amount)}</span>
            </li>
          ))}
          <li>
            <span>{t("subscriber.bill.tax", { rate: (bill.taxRateBps / 100).toLocaleString() })}</span>
            <span className="movement-list__debit">{formatMoney(bill.tax)}</span>
          </li>
          <li>
            <strong>{t("subscriber.bill.total")}</strong>
            <strong>{formatMoney(bill.total)}</strong>
          </li>
        </ul>
      </section>
    </div>
  );
}
