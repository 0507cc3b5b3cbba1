import { useState } from "react";
import { useCan } from "@refinedev/core";
import { Button } from "antd";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import { invoicesResource, type Invoice } from "../../resources/invoices";
import type { ActionSpec } from "../../resources/define";
import { actionApplies } from "../../components/actions/RecordActions";
import { formatDate, formatMoney } from "../../components/format";
import { TONES } from "../../components/statusTones";
import { BILL_TONES } from "./billWords";
import { PayBillDialog } from "../money/PayBillDialog";

const pay = invoicesResource.actions!.pay as ActionSpec;

/** One bill in words: its period, total and due date, its status in colour, and Pay while it is owed (the declared action). */
export function BillRow({
  bill,
  payNow = false,
  payOnly = false,
}: {
  bill: Invoice;
  /** Opens Pay at once (the home's Pay now led here). */
  payNow?: boolean;
  /** Only the Pay button and its dialog (the bill's own page says the rest). */
  payOnly?: boolean;
}) {
  const navigate = useNavigate();
  const { data: access } = useCan({ resource: "invoices", action: "pay", params: { id: bill.id } });
  const [paying, setPaying] = useState(payNow);
  const owed = actionApplies(pay, bill);
  // The subscriber's own dialog: a saved card or bank account or a new one, all that is due or another amount.
  // Kept open after the bill is paid, so its outcome is read there.
  const dialog = (owed || paying) && <PayBillDialog bill={bill} open={paying} onClose={() => setPaying(false)} />;
  const payButton = owed && access?.can && (
    <Button type="primary" danger={bill.status === "overdue"} onClick={() => setPaying(true)}>
      {t(bill.status === "overdue" ? "subscriber.money.payNow" : "subscriber.money.pay")}
    </Button>
  );
  if (payOnly)
    return payButton || dialog ? (
      <>
        {payButton}
        {dialog}
      </>
    ) : null;
  return (
    <div className="bill-row" data-testid="bill-row">
      <div>
        <a
          href={`/invoices/show/${bill.id}`}
          onClick={(e) => {
            e.preventDefault();
            void navigate(`/invoices/show/${bill.id}`);
          }}
        >
          {t("subscriber.money.billFor", { start: formatDate(bill.periodStart), end: formatDate(bill.periodEnd) })}
        </a>
        <div className="sub-card__muted">
          {formatMoney(owed ? bill.amountDue : bill.total)} ·{" "}
          {t(owed ? "subscriber.money.dueOn" : "subscriber.money.issuedOn", {
            date: formatDate(owed ? bill.dueOn : bill.issuedAt.slice(0, 10)),
          })}
        </div>
      </div>
      <div style={{ display: "flex", alignItems: "center", gap: 8 }}>
        <span className="bill-row__status" style={TONES[BILL_TONES[bill.status]]}>
          {t(`subscriber.money.billStatus.${bill.status}`)}
        </span>
        {payButton}
      </div>
      {dialog}
    </div>
  );
}
