import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { signWebhook, SIGNATURE_HEADER } from "../webhookSignature";
import { routingNumberValid } from "#resources/paymentMethods";
import { bankBehaviourOf, bankNameOf, behaviourOf, brandOf, luhnValid, type BankBehaviour } from "./cards";

/**
 * The sandbox card gateway: a small local HTTP service standing in for a real one (issue 9 item 4).
 *
 * - `POST /v1/tokens` (the browser, CORS): `{number, expMonth, expYear, cvc}` → a one-time token.
 *   Card numbers stay in this process's memory; they are never logged.
 * - `POST /v1/payment-methods` (the backend, `Authorization: Bearer <apiKey>`): `{token}` → a saved card.
 * - `POST /v1/charges` (the backend): `{amount, currency, source, reference, idempotencyKey}`.
 *   4242… succeeds, 4000…0002 is declined (402), 4000…0119 does not answer in time and succeeds
 *   later. Every outcome is also sent as a signed webhook (HMAC-SHA256 over "<t>.<body>").
 * - `POST /v1/late-charges/release` (the backend's key): the held late captures succeed now.
 * - `POST /v1/bank-account-tokens` (the browser, CORS): `{routingNumber, accountNumber,
 *   accountHolderType}` → a one-time token (400 naming `routingNumber` when its ABA checksum fails).
 *   A charge of a saved bank account answers `pending` (202): it settles after `achSettleMs` by a
 *   signed webhook (`charge.succeeded`, or `charge.failed`), and the "returned" test account is
 *   returned after that (`charge.returned`). `POST /v1/ach/settle` (the backend's key) does each
 *   waiting step now.
 *   A repeated idempotencyKey answers the first charge's result and charges nothing (as Stripe does),
 *   even when the one-time token was used up by the first charge.
 */
export interface SandboxOptions {
  port?: number;
  host?: string;
  apiKey: string;
  webhookSecret: string;
  /** Where webhooks go: a URL, or a function (tests hand events to an injected backend). Answers the HTTP status. */
  webhook: string | ((body: string, headers: Record<string, string>) => Promise<number>);
  /** After how long a timed-out charge succeeds by webhook; null: only when `releaseLate()` is called. */
  lateSuccessMs?: number | null;
  /** After how long a bank debit settles (and a returned one comes back, as long again); null: only on `settleAch()`. */
  achSettleMs?: number | null;
  /** Tries of one webhook delivery before it is given up. */
  deliveryAttempts?: number;
}

export interface SandboxEvent {
  id: string;
  type: "charge.succeeded" | "charge.failed" | "charge.returned";
  created: number;
  data: { chargeId: string; reference: string; amount: number; currency: string; failureCode?: string };
}

/** A charge the sandbox made (one per idempotency key), and how often it was asked for. */
export interface SandboxCharge {
  id: string;
  idempotencyKey: string | undefined;
  reference: string;
  amount: number;
  currency: string;
  /** Requests that named this charge's key: 1 + the repeats answered from the first result. */
  calls: number;
}

export interface SandboxGateway {
  url: string;
  /** Every charge made so far (for tests: a retried request must not add one). */
  charges: SandboxCharge[];
  /** Succeeds every timed-out charge now (its webhook sent, its held answer ended). */
  releaseLate(): Promise<void>;
  /** Settles every bank debit waiting now (and sends the return of those that come back): one step per call. */
  settleAch(): Promise<number>;
  /** The events sent so far (for tests: send one again to check replays). */
  events: SandboxEvent[];
  /** Sends an event (again), signed now. */
  send(event: SandboxEvent): Promise<number>;
  close(): Promise<void>;
}

interface Card {
  number: string;
  expMonth: number;
  expYear: number;
}

interface BankAccount {
  bank: true;
  routingNumber: string;
  accountNumber: string;
  accountHolderType: "individual" | "company";
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
};

const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600",
};

/** A body field as text: a string, or a number or flag written out; anything else (missing, an object) is "". */
const textOf = (value: unknown): string =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";

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

export async function startSandboxGateway(options: SandboxOptions): Promise<SandboxGateway> {
  const tokens = new Map<string, Card>();
  const methods = new Map<string, Card>();
  const bankTokens = new Map<string, BankAccount>();
  const bankMethods = new Map<string, BankAccount>();
  // Bank debits waiting for their next step: settle (then, for the returned account, come back).
  const ach: {
    step: "settle" | "return";
    behaviour: BankBehaviour;
    data: SandboxEvent["data"];
    timer?: NodeJS.Timeout;
  }[] = [];
  const byKey = new Map<string, { status: number; body: unknown; charge: SandboxCharge }>();
  const charges: SandboxCharge[] = [];
  const late: { event: SandboxEvent; res: ServerResponse; timer?: NodeJS.Timeout }[] = [];
  const events: SandboxEvent[] = [];
  const sockets = new Set<Socket>();
  const attempts = options.deliveryAttempts ?? 5;

  const send = async (event: SandboxEvent): Promise<number> => {
    const body = JSON.stringify(event);
    const headers = {
      "content-type": "application/json",
      [SIGNATURE_HEADER]: signWebhook(options.webhookSecret, body),
    };
    if (typeof options.webhook === "function") return options.webhook(body, headers);
    const res = await fetch(options.webhook, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
    return res.status;
  };

  const deliver = async (event: SandboxEvent) => {
    events.push(event);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const status = await send(event).catch(() => 0);
      if (status >= 200 && status < 300) return;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  };

  const cardFor = (source: unknown): Card | undefined => {
    if (typeof source !== "string") return undefined;
    if (source.startsWith("tok_")) {
      const card = tokens.get(source);
      tokens.delete(source); // one use
      return card;
    }
    return methods.get(source);
  };

  const achEvent = (type: SandboxEvent["type"], data: SandboxEvent["data"], failureCode?: string): SandboxEvent => ({
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      chargeId: data.chargeId,
      reference: data.reference,
      amount: data.amount,
      currency: data.currency,
      ...(failureCode ? { failureCode } : {}),
    },
  });
  const schedule = (entry: (typeof ach)[number]) => {
    ach.push(entry);
    if (options.achSettleMs != null) entry.timer = setTimeout(() => void stepAch(entry), options.achSettleMs);
  };
  const stepAch = async (entry: (typeof ach)[number]) => {
    clearTimeout(entry.timer);
    const at = ach.indexOf(entry);
    if (at < 0) return;
    ach.splice(at, 1);
    if (entry.step === "return") return deliver(achEvent("charge.returned", entry.data, "R01"));
    if (entry.behaviour === "fails") return deliver(achEvent("charge.failed", entry.data, "R02"));
    await deliver(achEvent("charge.succeeded", entry.data));
    if (entry.behaviour === "returned") schedule({ step: "return", behaviour: entry.behaviour, data: entry.data });
  };

  const releaseOne = async (entry: (typeof late)[number]) => {
    clearTimeout(entry.timer);
    late.splice(late.indexOf(entry), 1);
    await deliver(entry.event);
    if (!entry.res.writableEnded) json(entry.res, 200, { id: entry.event.data.chargeId, status: "succeeded" });
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method === "OPTIONS" && (path === "/v1/tokens" || path === "/v1/bank-account-tokens")) {
        res.writeHead(204, corsHeaders);
        return res.end();
      }
      if (req.method === "GET" && path === "/health") return json(res, 200, { status: "ok" });
      if (req.method !== "POST") return json(res, 404, { error: "not_found" });

      if (path === "/v1/tokens") {
        for (const [name, value] of Object.entries(corsHeaders)) res.setHeader(name, value);
        const body = await readJson(req);
        const number = textOf(body?.number).replace(/[\s-]/g, "");
        const expMonth = Number(body?.expMonth);
        const expYear = Number(body?.expYear);
        const cvc = textOf(body?.cvc);
        if (!luhnValid(number))
          return json(res, 400, { error: "invalid_number", field: "number", message: "not a valid card number" });
        if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12)
          return json(res, 400, { error: "invalid_expiry", field: "expMonth", message: "a month from 1 to 12" });
        const now = new Date();
        if (
          !Number.isInteger(expYear) ||
          expYear < now.getUTCFullYear() ||
          (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1) ||
          expYear > now.getUTCFullYear() + 20
        ) {
          return json(res, 400, {
            error: "invalid_expiry",
            field: "expYear",
            message: "the card has expired or the year is not valid",
          });
        }
        if (!/^\d{3,4}$/.test(cvc))
          return json(res, 400, { error: "invalid_cvc", field: "cvc", message: "3 or 4 digits" });
        const token = `tok_${randomUUID().replaceAll("-", "")}`;
        tokens.set(token, { number, expMonth, expYear });
        return json(res, 201, { token, card: { brand: brandOf(number), last4: number.slice(-4), expMonth, expYear } });
      }

      if (path === "/v1/bank-account-tokens") {
        for (const [name, value] of Object.entries(corsHeaders)) res.setHeader(name, value);
        const body = await readJson(req);
        const routingNumber = textOf(body?.routingNumber).replace(/[\s-]/g, "");
        const accountNumber = textOf(body?.accountNumber).replace(/[\s-]/g, "");
        const accountHolderType = body?.accountHolderType ?? "individual";
        if (!routingNumberValid(routingNumber))
          return json(res, 400, {
            error: "invalid_routing_number",
            field: "routingNumber",
            message: "not a valid routing number (9 digits that pass the ABA check)",
          });
        if (!/^\d{4,17}$/.test(accountNumber))
          return json(res, 400, { error: "invalid_account_number", field: "accountNumber", message: "4 to 17 digits" });
        if (accountHolderType !== "individual" && accountHolderType !== "company")
          return json(res, 400, {
            error: "invalid_holder_type",
            field: "accountHolderType",
            message: "individual or company",
          });
        const token = `btok_${randomUUID().replaceAll("-", "")}`;
        bankTokens.set(token, { bank: true, routingNumber, accountNumber, accountHolderType });
        return json(res, 201, {
          token,
          bankAccount: { bankName: bankNameOf(routingNumber), last4: accountNumber.slice(-4), accountHolderType },
        });
      }

      if (req.headers.authorization !== `Bearer ${options.apiKey}`) return json(res, 401, { error: "unauthorized" });
      const body = await readJson(req);
      if (!body) return json(res, 400, { error: "invalid_body" });

      if (path === "/v1/payment-methods") {
        const token = textOf(body.token);
        if (token.startsWith("btok_")) {
          const account = bankTokens.get(token);
          bankTokens.delete(token); // one use
          if (!account) return json(res, 400, { error: "invalid_token", message: "unknown or already used token" });
          const id = `ba_${randomUUID().replaceAll("-", "")}`;
          bankMethods.set(id, account);
          return json(res, 201, {
            id,
            type: "bank_account",
            bankName: bankNameOf(account.routingNumber),
            last4: account.accountNumber.slice(-4),
            accountHolderType: account.accountHolderType,
          });
        }
        const card = token.startsWith("tok_") ? cardFor(token) : undefined;
        if (!card) return json(res, 400, { error: "invalid_token", message: "unknown or already used token" });
        const id = `pm_${randomUUID().replaceAll("-", "")}`;
        methods.set(id, card);
        return json(res, 201, {
          id,
          brand: brandOf(card.number),
          last4: card.number.slice(-4),
          expMonth: card.expMonth,
          expYear: card.expYear,
        });
      }

      // The late captures held now (4000…0119), sent at once: how a test decides when "later" is.
      if (path === "/v1/late-charges/release") {
        const held = late.length;
        await Promise.all([...late].map(releaseOne));
        return json(res, 200, { released: held });
      }

      // The bank debits waiting now take their next step at once: how a test decides when "in 1–3 days" is.
      if (path === "/v1/ach/settle") {
        const waiting = [...ach];
        for (const entry of waiting) await stepAch(entry);
        return json(res, 200, { settled: waiting.length });
      }

      if (path === "/v1/charges") {
        const key = typeof body.idempotencyKey === "string" ? body.idempotencyKey : undefined;
        const seen = key ? byKey.get(key) : undefined;
        if (seen) {
          seen.charge.calls++;
          return json(res, seen.status, seen.body);
        }
        const amount = Number(body.amount);
        const currency = textOf(body.currency);
        const reference = textOf(body.reference);
        if (!Number.isSafeInteger(amount) || amount <= 0 || !/^[A-Z]{3}$/.test(currency))
          return json(res, 400, { error: "invalid_amount" });
        const account = typeof body.source === "string" ? bankMethods.get(body.source) : undefined;
        if (account) {
          const chargeId = `ch_${randomUUID().replaceAll("-", "")}`;
          const charge: SandboxCharge = { id: chargeId, idempotencyKey: key, reference, amount, currency, calls: 1 };
          charges.push(charge);
          const answer = { status: 202, body: { id: chargeId, status: "pending" } };
          if (key) byKey.set(key, { ...answer, charge });
          schedule({
            step: "settle",
            behaviour: bankBehaviourOf(account.accountNumber),
            data: { chargeId, reference, amount, currency },
          });
          return json(res, answer.status, answer.body);
        }
        const card = cardFor(body.source);
        if (!card)
          return json(res, 400, {
            error: "invalid_source",
            message: "unknown or already used token or payment method",
          });
        const chargeId = `ch_${randomUUID().replaceAll("-", "")}`;
        const charge: SandboxCharge = { id: chargeId, idempotencyKey: key, reference, amount, currency, calls: 1 };
        charges.push(charge);
        const behaviour = behaviourOf(card.number);
        const event = (type: SandboxEvent["type"], failureCode?: string): SandboxEvent => ({
          id: `evt_${randomUUID().replaceAll("-", "")}`,
          type,
          created: Math.floor(Date.now() / 1000),
          data: { chargeId, reference, amount, currency, ...(failureCode ? { failureCode } : {}) },
        });
        if (behaviour === "timesOut") {
          // The answer is held (the caller gives up first); the capture is told by webhook later.
          const entry: (typeof late)[number] = { event: event("charge.succeeded"), res };
          if (key) byKey.set(key, { status: 200, body: { id: chargeId, status: "succeeded" }, charge });
          late.push(entry);
          if (options.lateSuccessMs != null)
            entry.timer = setTimeout(() => void releaseOne(entry), options.lateSuccessMs);
          return;
        }
        const answer =
          behaviour === "declined"
            ? { status: 402, body: { id: chargeId, status: "failed", failureCode: "card_declined" } }
            : { status: 200, body: { id: chargeId, status: "succeeded" } };
        if (key) byKey.set(key, { ...answer, charge });
        json(res, answer.status, answer.body);
        // The webhook follows the answer, as a real gateway's does.
        setImmediate(
          () =>
            void deliver(
              behaviour === "declined" ? event("charge.failed", "card_declined") : event("charge.succeeded"),
            ),
        );
        return;
      }
      return json(res, 404, { error: "not_found" });
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
    events,
    charges,
    send,
    async settleAch() {
      const waiting = [...ach];
      for (const entry of waiting) await stepAch(entry);
      return waiting.length;
    },
    async releaseLate() {
      for (const entry of [...late]) await releaseOne(entry);
    },
    async close() {
      for (const entry of late) clearTimeout(entry.timer);
      for (const entry of ach) clearTimeout(entry.timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
