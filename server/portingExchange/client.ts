import type { PortRequestBody } from "./protocol";

/** How the backend reaches the number portability exchange (PORTING_EXCHANGE_URL and its keys). */
export interface PortingExchangeSettings {
  /** The exchange's base URL, e.g. http://127.0.0.1:8091 (the local stand-in). */
  url: string;
  apiKey: string;
  /** The shared secret the exchange signs its answers (webhooks) with. */
  webhookSecret: string;
  /** How long one request may take before it counts as failed (and is tried again later). */
  timeoutMs?: number;
}

export interface PortingExchange {
  webhookSecret: string;
  /** Files one port request; answers the exchange's request id, or throws (unreachable, refused, timed out). */
  submit(request: PortRequestBody): Promise<{ requestId: string }>;
}

/** Why a send failed, without anything of the request (the transfer PIN never reaches a log or a row). */
export class ExchangeUnavailable extends Error {}

export function portingExchangeClient(settings: PortingExchangeSettings): PortingExchange {
  return {
    webhookSecret: settings.webhookSecret,
    async submit(request) {
      let res: Response;
      try {
        res = await fetch(`${settings.url}/v1/port-requests`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${settings.apiKey}`,
            "idempotency-key": request.reference,
          },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(settings.timeoutMs ?? 10_000),
        });
      } catch (error) {
        const name = (error as Error).name;
        throw new ExchangeUnavailable(
          name === "TimeoutError" || name === "AbortError"
            ? "the exchange did not answer in time"
            : `the exchange could not be reached (${(error as { cause?: { code?: string } }).cause?.code ?? name})`,
        );
      }
      const body = (await res.json().catch(() => ({}))) as { id?: unknown };
      if (res.status !== 202 && res.status !== 200)
        throw new ExchangeUnavailable(`the exchange answered ${res.status}`);
      if (typeof body.id !== "string" || !body.id) throw new ExchangeUnavailable("the exchange answered no request id");
      return { requestId: body.id };
    },
  };
}
