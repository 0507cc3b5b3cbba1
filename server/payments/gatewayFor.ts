import { topUpPaymentOf } from "#resources/topUps";
import type { EngineServices } from "../engine/services";
import { unavailable, unprocessable } from "../errors";
import type { PaymentGateway } from "./gateway";

/**
 * The gateway that takes a payment for an operator. Top-ups: the operator's top-up payment setting
 * (422 when it is empty: vouchers instead; 503 when this server is not wired to the one it names).
 * Bills: the server's bill-payment gateway (`BILL_PAYMENT_GATEWAY`), independent of the top-up
 * setting, so a build that takes no card top-ups (ATT) still takes bill payments; 422 when none is
 * configured, 503 when it is not wired.
 */
export async function gatewayFor(
  services: Pick<EngineServices, "operators" | "payments" | "billPaymentGateway">,
  operator: string,
  purpose: "top-up" | "bill" = "top-up",
): Promise<PaymentGateway> {
  if (purpose === "bill") {
    const name = services.billPaymentGateway ?? "";
    if (name === "")
      throw unprocessable(
        "Online bill payment is unavailable on this server: pay the bill at a store or by bank transfer.",
        [{ path: "paymentMethodId", message: "online bill payment is unavailable" }],
      );
    const gateway = services.payments?.[name];
    if (!gateway) throw unavailable(`Bill payment through the "${name}" gateway is not available on this server.`);
    return gateway;
  }
  const name = topUpPaymentOf(await services.operators.settings(operator));
  if (name === "") {
    throw unprocessable(
      "Card top-up is unavailable for this operator: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).",
      [{ path: "paymentMethodId", message: "card top-up is unavailable; use a voucher" }],
    );
  }
  const gateway = services.payments?.[name];
  if (!gateway)
    throw unavailable(
      `Card top-up through the "${name}" gateway is not available on this server; add credit with a voucher instead.`,
    );
  return gateway;
}

/** The bill-payment gateway when there is one wired, else undefined (no throw): for pages that only tell. */
export const billGatewayOf = (
  services: Pick<EngineServices, "payments" | "billPaymentGateway">,
): PaymentGateway | undefined =>
  services.billPaymentGateway ? services.payments?.[services.billPaymentGateway] : undefined;
