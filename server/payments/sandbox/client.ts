import {
  GatewayRefusal,
  type ChargeResult,
  type PaymentGateway,
  type SavedBankAccount,
  type SavedCard,
} from "../gateway";

export interface SandboxClientOptions {
  /** The sandbox's base URL, e.g. http://127.0.0.1:8090. */
  url: string;
  apiKey: string;
  webhookSecret: string;
  /** How long a charge may take before the top-up waits for the webhook instead. */
  chargeTimeoutMs?: number;
}

/** The backend's side of the sandbox gateway: tokens in, saved cards and charge results out. */
export function sandboxGateway(options: SandboxClientOptions): PaymentGateway {
  const call = (path: string, body: unknown, timeoutMs: number) =>
    fetch(`${options.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  return {
    name: "sandbox",
    tokenizeUrl: `${options.url}/v1/tokens`,
    tokenizeBankAccountUrl: `${options.url}/v1/bank-account-tokens`,
    webhookSecret: options.webhookSecret,
    async saveCard(token): Promise<SavedCard> {
      const res = await call("/v1/payment-methods", { token }, 10_000);
      const body = (await res.json()) as {
        id?: string;
        brand?: SavedCard["brand"];
        last4?: string;
        expMonth?: number;
        expYear?: number;
        error?: string;
        message?: string;
      };
      if (res.status === 400)
        throw new GatewayRefusal(body.error ?? "invalid_token", body.message ?? "the gateway refused the token");
      if (!res.ok || !body.id) throw new Error(`sandbox gateway answered ${res.status} to saving a card`);
      return {
        gatewayMethodId: body.id,
        brand: body.brand ?? "unknown",
        last4: body.last4!,
        expMonth: body.expMonth!,
        expYear: body.expYear!,
      };
    },
    async saveBankAccount(token): Promise<SavedBankAccount> {
      const res = await call("/v1/payment-methods", { token }, 10_000);
      const body = (await res.json()) as {
        id?: string;
        bankName?: string;
        last4?: string;
        accountHolderType?: SavedBankAccount["accountHolderType"];
        error?: string;
        message?: string;
      };
      if (res.status === 400)
        throw new GatewayRefusal(body.error ?? "invalid_token", body.message ?? "the gateway refused the token");
      if (!res.ok || !body.id || !body.bankName)
        throw new Error(`sandbox gateway answered ${res.status} to saving a bank account`);
      return {
        gatewayMethodId: body.id,
        bankName: body.bankName,
        last4: body.last4!,
        accountHolderType: body.accountHolderType ?? "individual",
      };
    },
    async charge(input): Promise<ChargeResult> {
      let res: Response;
      try {
        res = await call("/v1/charges", input, options.chargeTimeoutMs ?? 8_000);
      } catch (error) {
        // No answer in time: the charge may still go through; its webhook settles the top-up.
        if ((error as Error).name === "TimeoutError" || (error as Error).name === "AbortError")
          return { outcome: "pending" };
        throw error;
      }
      const body = (await res.json().catch(() => ({}))) as {
        id?: string;
        status?: string;
        failureCode?: string;
        error?: string;
        message?: string;
      };
      if (res.status === 400)
        throw new GatewayRefusal(
          body.error ?? "invalid_source",
          body.message ?? "the gateway refused the payment source",
        );
      if (body.status === "succeeded" && body.id) return { outcome: "succeeded", chargeId: body.id };
      // A bank debit (ACH) is accepted now and settles in days: its webhook tells.
      if (body.status === "pending") return { outcome: "pending" };
      if (body.status === "failed")
        return { outcome: "failed", chargeId: body.id ?? null, failureCode: body.failureCode ?? "failed" };
      throw new Error(`sandbox gateway answered ${res.status} to a charge`);
    },
  };
}
