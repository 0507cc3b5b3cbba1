import { useNavigate, useSearchParams } from "react-router";
import { BillPay } from "./BillPay";
import { DestinationMore } from "./DestinationMore";
import { MoneyView } from "./MoneyView";

/**
 * Money inside the portal: the same page the light pages draw on a phone, with the portal's router
 * and each owed bill's Pay opening its dialog in place (at once for `?pay=<bill>`, where the home's
 * Pay now and the light Money page lead).
 */
export function MoneyPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (
    <MoneyView
      navigate={(to) => void navigate(to)}
      billPay={(bill) => <BillPay bill={bill} payNow={search.get("pay") === bill.id} />}
      more={<DestinationMore place="money" />}
    />
  );
}
