import { useGetIdentity } from "@refinedev/core";
import { Link } from "react-router";
import type { SessionUser } from "../../providers/sessionUser";
import type { ApiError } from "../../providers/apiClient";
import type { Money } from "../../resources/common";
import { translate as t } from "../../i18n";
import { formatMoney } from "../format";

/**
 * Under a balance too small (a 422's `shortfall`, or one seen before asking): the way on for the
 * subscriber, a link to top up at least what is missing. Staff acting for them get none (the subscriber tops up).
 */
export function TopUpHint({ error, shortfall = error?.shortfall }: { error?: ApiError; shortfall?: Money }) {
  const { data: user } = useGetIdentity<SessionUser>();
  if (!shortfall || user?.role !== "subscriber") return null;
  return (
    <p data-testid="top-up-hint" style={{ margin: "4px 0 12px" }}>
      <Link to="/top-up">{t("topUp.atLeast", { amount: formatMoney(shortfall) })}</Link>
    </p>
  );
}
