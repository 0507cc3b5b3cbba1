import { lazy, Suspense, useEffect, useState } from "react";
import { useCan } from "@refinedev/core";
import { Button } from "antd";
import { translate as t } from "../../i18n";
import { invoicesResource, type Invoice } from "../../resources/invoices";
import type { ActionSpec } from "../../resources/define";
import { actionApplies } from "../../components/actions/RecordActions";
import { whenIdle } from "../../components/whenIdle";

// The pay dialog's forms (a card, a bank account) load once the page is idle, not with Money's first paint.
const PayBillDialog = lazy(() => import("../money/PayBillDialog").then((m) => ({ default: m.PayBillDialog })));
const loadPayBillDialog = () => void import("../money/PayBillDialog").catch(() => undefined);

const pay = invoicesResource.actions!.pay as ActionSpec;

/**
 * A bill's Pay in the portal while it is owed (the declared action, as the viewer may run it), opening
 * the subscriber's pay dialog in place: on Money beside each bill, and on the bill's own page.
 */
export function BillPay({
  bill,
  payNow = false,
}: {
  bill: Invoice;
  /** Opens the dialog at once (the home's Pay now, or the light Money page, led here). */
  payNow?: boolean;
}) {
  const { data: access } = useCan({ resource: "invoices", action: "pay", params: { id: bill.id } });
  const [paying, setPaying] = useState(payNow);
  const [opened, setOpened] = useState(payNow);
  const owed = actionApplies(pay, bill);
  useEffect(() => {
    if (owed) whenIdle(loadPayBillDialog);
  }, [owed]);
  return (
    <>
      {owed && access?.can && (
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
      )}
      {/* Mounted from its first opening on and kept open after the bill is paid, so its outcome is read there. */}
      {opened && (
        <Suspense fallback={null}>
          <PayBillDialog bill={bill} open={paying} onClose={() => setPaying(false)} />
        </Suspense>
      )}
    </>
  );
}
