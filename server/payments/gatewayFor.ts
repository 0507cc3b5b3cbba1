import { topUpPaymentOf } from "../../src/resources/topUps";
import type { EngineServices } from "../engine/services";
import { unavailable, unprocessable } from "../errors";
import type { PaymentGateway } from "./gateway";

/** The gateway that takes cards for an operator: 422 when its setting is empty (vouchers instead), 503 when this server is not wired to the one it names. */
export async function gatewayFor(services: Pick<EngineServices, "operators" | "payments">, operator: string, purpose: "top-up" | "bill" = "top-up"): Promise<PaymentGateway> {
  const name = topUpPaymentOf(await services.operators.settings(operator));
  if (name === "" && purpose === "bill") {
    throw unprocessable("Card payment is unavailable for this operator: pay the bill at a store or by bank transfer.", [{ path: "paymentMethodId", message: "card payment is unavailable" }]);
  }
  if (name === "") {
    throw unprocessable("Card top-up is unavailable for this operator: add credit with a voucher instead (POST /api/v1/accounts/{id}/actions/redeem-voucher).", [
      { path: "paymentMethodId", message: "card top-up is unavailable; use a voucher" },
    ]);
  }
  const gateway = services.payments?.[name];
  if (!gateway && purpose === "bill") throw unavailable(`Card payment through the "${name}" gateway is not available on this server.`);
  if (!gateway) throw unavailable(`Card top-up through the "${name}" gateway is not available on this server; add credit with a voucher instead.`);
  return gateway;
}

