import { lazy, Suspense, useEffect, useState } from "react";
import { useCan } from "@refinedev/core";
import { Button } from "antd";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import { invoicesResource, type Invoice } from "../../resources/invoices";
import type { ActionSpec } from "../../resources/define";
import { actionApplies } from "../../components/actions/RecordActions";
import { formatDate, formatMoney } from "../../components/format";
import { TONES } from "../../components/statusTones";
import { whenIdle } from "../../components/whenIdle";
import { BILL_TONES } from "./billWords";

// The pay dialog's forms (a card, a bank account) load once the page is idle, not with Money's first paint.
const PayBillDialog = lazy(() => import("../money/PayBillDialog").then((m) => ({ default: m.PayBillDialog })));
const loadPayBillDialog = () => void import("../money/PayBillDialog").catch(() => undefined);

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
  const [opened, setOpened] = useState(payNow);
  const owed = actionApplies(pay, bill);
  useEffect(() => {
    if (owed) whenIdle(loadPayBillDialog);
  }, [owed]);
  // The subscriber's own dialog: a saved card or bank account or a new one, all that is due or another amount.
  // Mounted from its first opening on and kept open after the bill is paid, so its outcome is read there.
  const dialog = opened && (
    <Suspense fallback={null}>
      <PayBillDialog bill={bill} open={paying} onClose={() => setPaying(false)} />
    </Suspense>
  );
  const payButton = owed && access?.can && (
    <Button
      type="primary"
      danger={bill.status === "overdue"}
      onClick={() => {
        setOpened(true);
        setPaying(true);
      }}
    >
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
