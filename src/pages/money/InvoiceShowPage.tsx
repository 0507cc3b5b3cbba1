import type { DeclaredResource } from "../declaredResource";
import { useGetIdentity, useShow } from "@refinedev/core";
import { Skeleton } from "antd";
import { useParams } from "react-router";
import { getLocale, translate as t } from "../../i18n";
import { overageDetail } from "../../i18n/postedText";
import { postedText } from "../../components/postedWords";
import { INVOICE_ITEM_KINDS, type Invoice, type InvoiceItem } from "../../resources/invoices";
import type { SessionUser } from "../../providers/session";
import { RecordDownloads } from "../../components/actions/RecordDownloads";
import { formatDate, formatDateTime, formatMoney } from "../../components/format";
import { TONES } from "../../components/statusTones";
import { ResourceShowPage } from "../ResourceShowPage";
import { BillPay } from "../subscriber/BillPay";
import { BILL_TONES } from "../subscriber/billWords";
import "../subscriber/subscriber.css";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";
import { NotThere } from "../subscriber/NotThere";

const GROUPS = INVOICE_ITEM_KINDS;

/** A line in words: usage beyond the allowance by type and zone ("Data beyond the allowance (Canada & Mexico)"), else what the charge says. */
export function itemWords(item: InvoiceItem): string {
  if (item.kind !== "overage") return postedText(item.description);
  return t("subscriber.bill.overage", {
    type: t(`subscriber.bill.usage.${item.usageType ?? "data"}`, undefined, item.usageType ?? ""),
    zone: t(`subscriber.bill.zone.${item.roamingZone ?? "home"}`, undefined, item.roamingZone ?? ""),
  });
}

/** A bill: for its subscriber, what it is made of, its status in colour and Pay; for staff, the generic record page. */
export default function InvoiceShowPage({ resource }: { resource: DeclaredResource }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return <Skeleton active />;
  if (user.role !== "subscriber" || !id) return <ResourceShowPage resource={resource} />;
  return <SubscriberBill id={id} resource={resource} />;
}

function SubscriberBill({ id, resource }: { id: string; resource: DeclaredResource }) {
  const { query, result: bill } = useShow<Invoice>({ resource: "invoices", id, errorNotification: drawnWhenNotFound });
  if (query.isError) return <NotThere />;
  if (!bill) return <Skeleton active />;
  const open = bill.status === "issued" || bill.status === "overdue";
  return (
    <div className="sub-page">
      <div className="sub-card__row">
        <h1 className="sub-page__title">
          {t("subscriber.money.billFor", { start: formatDate(bill.periodStart), end: formatDate(bill.periodEnd) })}
        </h1>
        <span className="bill-row__status" style={TONES[BILL_TONES[bill.status]]} data-testid="bill-status">
          {t(`subscriber.money.billStatus.${bill.status}`)}
        </span>
      </div>
      <section className="sub-card" aria-labelledby="bill-total">
        <h2 className="sub-card__title" id="bill-total">
          {t(open ? "subscriber.bill.left" : "subscriber.bill.total")}
        </h2>
        <p className="sub-card__big" data-testid="bill-due">
          {formatMoney(open ? bill.amountDue : bill.total)}
        </p>
        <p className="sub-card__muted" style={{ marginTop: 0 }} data-testid="bill-last">
          {bill.previousTotal
            ? t("subscriber.bill.lastBill", { amount: formatMoney(bill.previousTotal) })
            : t("subscriber.bill.firstBill")}
        </p>
        <p className="sub-card__muted" style={{ marginTop: 0 }}>
          {bill.status === "paid" && bill.paidAt
            ? t("subscriber.bill.paidOn", { time: formatDateTime(bill.paidAt) })
            : bill.status === "void"
              ? t("subscriber.bill.voided", { reason: bill.voidReason ?? "" })
              : t("subscriber.bill.due", { date: formatDate(bill.dueOn), number: bill.number })}
        </p>
        {/* Pay while owed (the declared action, a card added in the same dialog when none is saved). */}
        <BillPay bill={bill} />
        <div className="sub-card__actions">
          <RecordDownloads resource={resource} record={bill} />
        </div>
      </section>
      <section className="sub-card" aria-labelledby="bill-items">
        <h2 className="sub-card__title" id="bill-items">
          {t("subscriber.bill.items")}
        </h2>
        {GROUPS.filter((kind) => bill.items.some((item) => item.kind === kind)).map((kind) => (
          <div key={kind}>
            <h3 className="sub-card__muted" style={{ margin: "8px 0 0", fontSize: 13 }}>
              {t(`subscriber.bill.group.${kind}`)}
            </h3>
            <ul className="movement-list" data-testid={`bill-items-${kind}`}>
              {bill.items
                .filter((item) => item.kind === kind)
                .map((item, i) => (
                  <li key={i}>
                    <span>
                      {itemWords(item)}
                      {item.kind === "overage" && (
                        <span className="sub-card__muted" style={{ display: "block", fontSize: 12 }}>
                          {overageDetail(item.description, getLocale())}
                        </span>
                      )}
                    </span>
                    <span className="movement-list__debit">{formatMoney(item.amount)}</span>
                  </li>
                ))}
            </ul>
          </div>
        ))}
        <ul className="movement-list" data-testid="bill-items">
          <li>
            <span>{t("subscriber.bill.tax", { rate: (bill.taxRateBps / 100).toLocaleString() })}</span>
            <span className="movement-list__debit">{formatMoney(bill.tax)}</span>
          </li>
          {bill.credit.amount > 0 && (
            <li>
              <span>{t("subscriber.bill.credit")}</span>
              <span>−{formatMoney(bill.credit)}</span>
            </li>
          )}
          <li>
            <strong>{t("subscriber.bill.total")}</strong>
            <strong>{formatMoney(bill.total)}</strong>
          </li>
          {bill.amountPaid.amount > 0 && bill.amountPaid.amount < bill.total.amount && (
            <>
              <li>
                <span>{t("subscriber.bill.paidSoFar")}</span>
                <span>{formatMoney(bill.amountPaid)}</span>
              </li>
              <li>
                <strong>{t("subscriber.bill.left")}</strong>
                <strong>{formatMoney(bill.amountDue)}</strong>
              </li>
            </>
          )}
        </ul>
      </section>
    </div>
  );
}
