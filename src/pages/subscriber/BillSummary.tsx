import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import type { Invoice } from "../../resources/invoices";
import { OPEN_INVOICE_STATUSES } from "../../resources/invoiceStatuses";
import { formatDate, formatMoney } from "../../components/format";
import { PlainLink, type Navigate } from "../../components/PlainLink";
import { TONES } from "../../components/statusTones";
import { BILL_TONES } from "./billWords";
import "./subscriber.css";

/** Whether a bill still asks for money (the declared `pay` applies to it). */
export const billOwed = (bill: Pick<Invoice, "status">) =>
  (OPEN_INVOICE_STATUSES as readonly string[]).includes(bill.status);

/**
 * One bill in words: its period (leading to the bill's page), what it asks or asked for and by when,
 * its status in colour, then `pay` (the portal's button and dialog, or the light page's link to it).
 * Plain React and CSS, for the portal and the light Money page alike.
 */
export function BillSummary({ bill, navigate, pay }: { bill: Invoice; navigate: Navigate; pay?: ReactNode }) {
  const owed = billOwed(bill);
  return (
    <div className="bill-row" data-testid="bill-row">
      <div>
        <PlainLink to={`/invoices/show/${bill.id}`} navigate={navigate}>
          {t("subscriber.money.billFor", { start: formatDate(bill.periodStart), end: formatDate(bill.periodEnd) })}
        </PlainLink>
        <div className="sub-card__muted">
          {formatMoney(owed ? bill.amountDue : bill.total)} ·{" "}
          {t(owed ? "subscriber.money.dueOn" : "subscriber.money.issuedOn", {
            date: formatDate(owed ? bill.dueOn : bill.issuedAt.slice(0, 10)),
          })}
        </div>
      </div>
      <div className="bill-row__end">
        <span className="bill-row__status" style={TONES[BILL_TONES[bill.status]]}>
          {t(`subscriber.money.billStatus.${bill.status}`)}
        </span>
        {pay}
      </div>
    </div>
  );
}
