import { topUpPaymentOf } from "#resources/topUps";
import type { EngineServices } from "../engine/services";
import { unavailable, unprocessable } from "../errors";
import { words } from "../i18n/words";
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
      throw unprocessable(words("payments.billsOffline"), [
        { path: "paymentMethodId", message: words("payments.billsOfflineField") },
      ]);
    const gateway = services.payments?.[name];
    if (!gateway) throw unavailable(words("payments.billGatewayNotWired", { gateway: name }));
    return gateway;
  }
  const name = topUpPaymentOf(await services.operators.settings(operator));
  if (name === "") {
    throw unprocessable(words("payments.cardTopUpUnavailable"), [
      { path: "paymentMethodId", message: words("payments.cardTopUpUnavailableField") },
    ]);
  }
  const gateway = services.payments?.[name];
  if (!gateway) throw unavailable(words("payments.cardTopUpGatewayNotWired", { gateway: name }));
  return gateway;
}

/** The bill-payment gateway when there is one wired, else undefined (no throw): for pages that only tell. */
export const billGatewayOf = (
  services: Pick<EngineServices, "payments" | "billPaymentGateway">,
): PaymentGateway | undefined =>
  services.billPaymentGateway ? services.payments?.[services.billPaymentGateway] : undefined;
