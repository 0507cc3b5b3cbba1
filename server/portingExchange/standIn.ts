import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { signWebhook } from "../payments/webhookSignature";
import { EXCHANGE_SIGNATURE_HEADER, type ExchangeEvent, type PortRequestBody } from "./protocol";

/**
 * The number portability exchange's local stand-in (issue 28 item 3): a small HTTP service the
 * backend talks to as it would to the real clearinghouse, started by `npm start` beside it.
 *
 * - `POST /v1/port-requests` (`Authorization: Bearer <apiKey>`): `{reference, msisdn, carrierAccount,
 *   transferPin, zip, recipientCarrier}` → 202 `{id, status: "pending"}`. The same `reference` again
 *   answers the first request (no second port), and sends its answer again if it was already given.
 *   400 naming a missing field; 401 without the key.
 * - After `delayMs` the losing carrier's answer goes to the backend's webhook, signed with the shared
 *   secret (HMAC-SHA256 over "<t>.<body>" in `x-exchange-signature`): `port_request.accepted`, or
 *   `port_request.rejected` with the exchange's `reasonCode` and `reason`.
 *
 * Who refuses (deterministic, see LOSING_CARRIER_ACCOUNTS): a number the stand-in holds an account
 * record for is refused when the account number, transfer PIN or ZIP differs from the record; any
 * other number is refused when its transfer PIN is 0000 or its ZIP is 00000, and accepted otherwise.
 * Transfer PINs stay in this process's memory for the comparison; they are never logged.
 */
export interface PortingExchangeStandInOptions {
  port?: number;
  host?: string;
  apiKey: string;
  webhookSecret: string;
  /** Where answers go: a URL, or a function (tests hand them to an injected backend). Answers the HTTP status. */
  webhook: string | ((body: string, headers: Record<string, string>) => Promise<number>);
  /** How long the losing carrier takes to answer. */
  delayMs: number;
  /** Tries of one webhook delivery before it is given up. */
  deliveryAttempts?: number;
}

export interface PortingExchangeStandIn {
  url: string;
  /** Requests received (one per reference: a repeated reference is not a new one). */
  requests: { id: string; reference: string; msisdn: string; calls: number }[];
  /** The answers sent so far (tests send one again to check that a second answer changes nothing). */
  events: ExchangeEvent[];
  /** Sends an answer (again), signed now; resolves to the webhook's HTTP status. */
  send(event: ExchangeEvent): Promise<number>;
  close(): Promise<void>;
}

/** The losing carriers' account records the stand-in knows (the demo ports +1 202 555 0188 with these). */
export const LOSING_CARRIER_ACCOUNTS: Record<string, { carrierAccount: string; transferPin: string; zip: string }> = {
  "+12025550188": { carrierAccount: "55501", transferPin: "2468", zip: "20001" },
  "+12025550189": { carrierAccount: "55502", transferPin: "1357", zip: "20002" },
};

/** The exchange's verdict on one request, by the rule above. */
export function verdictOf(request: Pick<PortRequestBody, "msisdn" | "carrierAccount" | "transferPin" | "zip">): {
  accepted: boolean;
  reasonCode?: string;
  reason?: string;
} {
  const record = LOSING_CARRIER_ACCOUNTS[request.msisdn];
  const pinWrong = record ? request.transferPin !== record.transferPin : request.transferPin === "0000";
  const zipWrong = record ? request.zip !== record.zip : request.zip === "00000";
  const accountWrong = record ? request.carrierAccount.replace(/[\s-]/g, "") !== record.carrierAccount : false;
  if (accountWrong)
    return {
      accepted: false,
      reasonCode: "account_mismatch",
      reason: "The account number does not match the losing carrier's records for this number.",
    };
  if (pinWrong)
    return {
      accepted: false,
      reasonCode: "transfer_pin_mismatch",
      reason: "The transfer PIN does not match the one the losing carrier issued.",
    };
  if (zipWrong)
    return {
      accepted: false,
      reasonCode: "zip_mismatch",
      reason: "The ZIP code does not match the billing address of the losing carrier's account.",
    };
  return { accepted: true };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
};

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16_384) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const FIELDS = ["reference", "msisdn", "carrierAccount", "transferPin", "zip"] as const;

export async function startPortingExchangeStandIn(
  options: PortingExchangeStandInOptions,
): Promise<PortingExchangeStandIn> {
  const requests: PortingExchangeStandIn["requests"] = [];
  const byReference = new Map<string, PortingExchangeStandIn["requests"][number]>();
  const events: ExchangeEvent[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const attempts = options.deliveryAttempts ?? 5;
  let closed = false;

  const send = async (event: ExchangeEvent): Promise<number> => {
    const body = JSON.stringify(event);
    const headers = {
      "content-type": "application/json",
      [EXCHANGE_SIGNATURE_HEADER]: signWebhook(options.webhookSecret, body),
    };
    if (typeof options.webhook === "function") return options.webhook(body, headers);
    const res = await fetch(options.webhook, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    return res.status;
  };

  const deliver = async (event: ExchangeEvent, record = true) => {
    if (record) events.push(event);
    for (let attempt = 1; attempt <= attempts && !closed; attempt++) {
      const status = await send(event).catch(() => 0);
      if (status >= 200 && status < 300) return;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method === "GET" && path === "/health") return json(res, 200, { status: "ok" });
      if (req.method !== "POST" || path !== "/v1/port-requests") return json(res, 404, { error: "not_found" });
      if (req.headers.authorization !== `Bearer ${options.apiKey}`)
        return json(res, 401, { error: "unauthorized", message: "a valid API key is required" });
      const body = await readJson(req);
      for (const field of FIELDS) {
        if (typeof body?.[field] !== "string" || !body[field].trim())
          return json(res, 400, { error: "invalid_request", field, message: `${field} is required` });
      }
      const request = body as unknown as PortRequestBody;
      const known = byReference.get(request.reference);
      if (known) {
        known.calls++;
        // Asked again after answering: the answer is sent again (the backend never got it).
        const answered = events.find((e) => e.data.requestId === known.id);
        if (answered) void deliver({ ...answered, id: `evt_${randomUUID().replaceAll("-", "")}` }, false);
        return json(res, 202, { id: known.id, status: "pending" });
      }
      const entry = {
        id: `pr_${randomUUID().replaceAll("-", "")}`,
        reference: request.reference,
        msisdn: request.msisdn,
        calls: 1,
      };
      requests.push(entry);
      byReference.set(request.reference, entry);
      const verdict = verdictOf(request);
      const timer = setTimeout(() => {
        timers.delete(timer);
        void deliver({
          id: `evt_${randomUUID().replaceAll("-", "")}`,
          type: verdict.accepted ? "port_request.accepted" : "port_request.rejected",
          created: Math.floor(Date.now() / 1000),
          data: {
            requestId: entry.id,
            reference: entry.reference,
            msisdn: entry.msisdn,
            ...(verdict.accepted ? {} : { reasonCode: verdict.reasonCode, reason: verdict.reason }),
          },
        });
      }, options.delayMs);
      timers.add(timer);
      return json(res, 202, { id: entry.id, status: "pending" });
    })().catch(() => {
      if (!res.headersSent) json(res, 500, { error: "internal" });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    requests,
    events,
    send,
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
