import { randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../../server/db/client";
import { accounts, ledgerEntries } from "../../server/db/schema";
import { attSeed } from "../../server/db/seed/demoData";
import { seedOperator } from "../../server/db/seed/seedDatabase";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";
import { startBackendProcess, type BackendProcess } from "./backendProcess";
import { ADMIN } from "./fixtures";
import { signInWithPassword } from "./testBackend";
import { signOf, type LedgerKind } from "../../src/resources/ledgerEntries";
import { createThrowawayPostgresDatabase } from "./testDatabase";

// Conservation of money under retries and a crash (issue 9), shared by the test (bounded) and the
// benchmark (1,000 operations): top-ups and charges over many prepaid accounts, sent concurrently to
// the real backend process, each repeated with the same Idempotency-Key, the process SIGKILLed once
// in the middle and restarted on the same data. A top-up is a real one: a voucher (generated through
// the API beforehand) redeemed on the account, whose retry after a lost answer must replay the credit,
// not call the code used. Every operation is retried until it has a final answer; then every
// acknowledged one must be in the ledger exactly once, every refused one not at all, and each
// account's balance must equal its opening balance plus what was acknowledged, and the sum of its
// entries.

export interface ConservationOptions {
  driver: "pglite" | "postgres";
  operations: number;
  accounts: number;
  concurrency: number;
  /** Opening balance of each account (minor units). */
  opening?: number;
  log?: (line: string) => void;
}

export interface ConservationFigures {
  driver: string;
  operations: number;
  accounts: number;
  requestsSent: number;
  acknowledged: number;
  refusedShortfall: number;
  replayed: number;
  /** Requests cut by the kill (connection errors), retried after the restart. */
  cutByKill: number;
  acknowledgedBeforeKill: number;
  lost: number;
  doubled: number;
  /** Entries of refused operations (must be 0). */
  phantom: number;
  /** Accounts whose balance is not opening + acknowledged, or not the sum of their entries. */
  accountsOff: number;
  restartMs: number;
  elapsedMs: number;
  throughputPerSecond: number;
  problems: string[];
}

/** What the vouchers of the top-ups are worth (one batch each); a top-up's amount is one of these. */
const VOUCHER_VALUES = [100, 250, 500, 1_000, 1_500];
/** The reason the ledger gives a voucher's credit (server/domain/money/vouchers.ts). */
const VOUCHER_REASON = "Voucher top-up";

interface Operation {
  index: number;
  accountId: string;
  action: "redeem-voucher" | "charge";
  amount: number;
  /** The voucher a top-up redeems. */
  code?: string;
  key: string;
  reason: string;
  /** The final answer: 200 (done) or 422 (a charge the balance could not cover). */
  final?: 200 | 422;
}

/** A PGlite folder or a PostgreSQL database, thrown away afterwards. */
async function throwawayStore(driver: "pglite" | "postgres"): Promise<{ env: Record<string, string>; open: () => ReturnType<typeof openDatabase>; remove(): Promise<void> }> {
  if (driver === "postgres") {
    const database = await createThrowawayPostgresDatabase();
    return { env: { DATABASE_URL: database.url }, open: () => openDatabase({ url: database.url, dataDir: "" }), remove: () => database.drop() };
  }
  const dir = mkdtempSync(join(tmpdir(), "portal-money-"));
  return { env: { DATA_DIR: dir }, open: () => openDatabase({ dataDir: dir }), remove: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The operator and N prepaid accounts, each opened with a credit, written before the backend first starts. */
async function prepareAccounts(open: () => ReturnType<typeof openDatabase>, count: number, opening: number, tag: string): Promise<string[]> {
  const database = await open();
  try {
    await seedOperator(database.db, attSeed, createSecretBox(LOCAL_SECRETS_KEY));
    return await database.db.transaction(async (tx) => {
      const rows = await tx
        .insert(accounts)
        .values(Array.from({ length: count }, (_, i) => ({ operatorCode: "ATT", ownerUid: null, name: `Conservation ${tag} ${i}`, type: "prepaid" as const })))
        .returning({ id: accounts.id });
      for (const row of rows) {
        await tx.insert(ledgerEntries).values({ operatorCode: "ATT", accountId: row.id, kind: "top_up", amount: opening, currency: "USD", reason: `opening ${tag}`, actorRole: "system" });
      }
      return rows.map((r) => r.id);
    });
  } finally {
    await database.close();
  }
}

export async function runConservation(options: ConservationOptions): Promise<ConservationFigures> {
  const log = options.log ?? (() => {});
  const opening = options.opening ?? 20_000;
  const tag = randomBytes(3).toString("hex");
  const store = await throwawayStore(options.driver);
  let server: BackendProcess | undefined;
  try {
    const accountIds = await prepareAccounts(store.open, options.accounts, opening, tag);
    server = await startBackendProcess(store.env);
    const token = await signInWithPassword(ADMIN);

    const operations: Operation[] = Array.from({ length: options.operations }, (_, index) => {
      // Charges a little more often than top-ups, so some run into an empty balance (refused: 422).
      const topUp = randomInt(0, 100) < 45;
      return {
        index,
        accountId: accountIds[index % accountIds.length]!,
        action: topUp ? "redeem-voucher" : "charge",
        amount: topUp ? VOUCHER_VALUES[randomInt(0, VOUCHER_VALUES.length)]! : randomInt(1, 1_500),
        key: `money-${tag}-${index}`,
        reason: `conservation ${tag} op ${index}`,
      };
    });
    // The vouchers, one batch per value, generated as an admin would (before the clock and the kill).
    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const value of VOUCHER_VALUES) {
      const topUps = operations.filter((o) => o.action === "redeem-voucher" && o.amount === value);
      if (topUps.length === 0) continue;
      const res = await fetch(`${server.baseUrl}/api/v1/voucher-batches`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "x-operator": "ATT", "content-type": "application/json" },
        body: JSON.stringify({ count: topUps.length, value: { amount: value, currency: "USD" }, expiresOn }),
      });
      const { codes } = (await res.json()) as { codes: string[] };
      if (res.status !== 201 || codes.length !== topUps.length) throw new Error(`voucher batch of ${value}: ${res.status}`);
      topUps.forEach((op, i) => (op.code = codes[i]));
    }

    let requestsSent = 0;
    let replayed = 0;
    let cutByKill = 0;
    let acknowledged = 0;
    let acknowledgedBeforeKill = 0;
    let restartMs = 0;
    const killAt = Math.floor(options.operations / 2);
    // While the backend is down, every worker waits on the same restart.
    let restarting: Promise<void> | null = null;
    let killed = false;

    const killAndRestart = () => {
      if (restarting) return restarting;
      killed = true;
      acknowledgedBeforeKill = acknowledged;
      log(`SIGKILL after ${acknowledged} acknowledged operations`);
      const down = server!;
      down.signal("SIGKILL");
      restarting = (async () => {
        await down.exited;
        const started = performance.now();
        server = await startBackendProcess(store.env);
        restartMs = performance.now() - started;
        log(`restarted in ${Math.round(restartMs)} ms`);
      })();
      return restarting;
    };

    /** One request of an operation; null when the connection broke (the kill) or the server was not there. */
    const send = async (op: Operation) => {
      requestsSent++;
      const base = server!.baseUrl;
      try {
        const res = await fetch(`${base}/api/v1/accounts/${op.accountId}/actions/${op.action}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "x-operator": "ATT", "content-type": "application/json", "idempotency-key": op.key },
          body: JSON.stringify(op.code ? { code: op.code, reason: op.reason } : { amount: { amount: op.amount, currency: "USD" }, reason: op.reason }),
          signal: AbortSignal.timeout(60_000),
        });
        const body = await res.text();
        if (res.headers.get("idempotent-replayed") === "true") replayed++;
        return { status: res.status, body };
      } catch {
        cutByKill++;
        return null;
      }
    };

    /** Sends an operation (and its repeat, sometimes at the same moment) until it has a final answer. */
    const settle = async (op: Operation) => {
      const answers = await Promise.all(randomInt(0, 2) === 0 ? [send(op), send(op)] : [send(op)]);
      let answer = answers.find((a) => a && (a.status === 200 || a.status === 422)) ?? null;
      // The repeat, with the same key: replays the first answer when that one was given.
      for (let attempt = 0; ; attempt++) {
        if (restarting) await restarting;
        const again = await send(op);
        if (again && (again.status === 200 || again.status === 422)) {
          if (answer && answer.status !== again.status) throw new Error(`operation ${op.index}: answered ${answer.status}, then ${again.status} to the same key`);
          answer = again;
          break;
        }
        if (again && again.status !== 409) throw new Error(`operation ${op.index}: unexpected ${again.status} ${again.body}`);
        if (attempt > 200) throw new Error(`operation ${op.index}: no final answer after ${attempt} retries`);
        if (!again && !restarting && !server!.alive()) throw new Error("the backend died without being killed");
        // A cut connection waits for the restart (above); a 409 (first request still running) is retried at once.
      }
      op.final = answer!.status as 200 | 422;
      // A voucher is never short of anything: refusing one (say, as used, after a lost answer) is the bug this proves absent.
      if (op.code && op.final !== 200) throw new Error(`top-up ${op.index}: the voucher was refused (${answer!.body})`);
      if (op.final === 200) acknowledged++;
      if (!killed && acknowledged >= killAt) await killAndRestart();
    };

    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < operations.length) await settle(operations[next++]!);
      }),
    );
    const elapsedMs = performance.now() - started;
    if (!killed) await killAndRestart();
    if (restarting) await restarting;

    // What the restarted backend holds, through the API.
    const problems: string[] = [];
    const entriesByReason = new Map<string, number>();
    let accountsOff = 0;
    let voucherLost = 0;
    let voucherDoubled = 0;
    for (const accountId of accountIds) {
      const entries: { kind: LedgerKind; amount: { amount: number }; reason: string }[] = [];
      for (let page = 1; ; page++) {
        const res = await fetch(`${server!.baseUrl}/api/v1/ledger-entries?filter[accountId]=${accountId}&pageSize=100&page=${page}`, {
          headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
        });
        const { data, total } = (await res.json()) as { data: typeof entries; total: number };
        entries.push(...data);
        if (data.length === 0 || entries.length >= total) break;
      }
      for (const e of entries) entriesByReason.set(e.reason, (entriesByReason.get(e.reason) ?? 0) + 1);
      // Voucher credits all carry the same reason: per account, their amounts must be exactly those of the acknowledged top-ups.
      const credited = entries.filter((e) => e.reason === VOUCHER_REASON).map((e) => e.amount.amount).sort((a, b) => a - b);
      const toppedUp = operations.filter((o) => o.accountId === accountId && o.code && o.final === 200).map((o) => o.amount).sort((a, b) => a - b);
      voucherLost += Math.max(0, toppedUp.length - credited.length);
      voucherDoubled += Math.max(0, credited.length - toppedUp.length);
      if (credited.join() !== toppedUp.join() && credited.length === toppedUp.length) problems.push(`account ${accountId}: voucher credits ${credited.join()} for top-ups of ${toppedUp.join()}`);
      const sum = entries.reduce((s, e) => s + signOf(e.kind) * e.amount.amount, 0);
      const expected =
        opening +
        operations.filter((o) => o.accountId === accountId && o.final === 200).reduce((s, o) => s + (o.action === "redeem-voucher" ? o.amount : -o.amount), 0);
      const account = (await (await fetch(`${server!.baseUrl}/api/v1/accounts/${accountId}`, { headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" } })).json()) as {
        balance: { amount: number };
      };
      if (account.balance.amount !== expected || sum !== expected) {
        accountsOff++;
        problems.push(`account ${accountId}: balance ${account.balance.amount}, sum of entries ${sum}, expected ${expected}`);
      }
    }
    const charges = operations.filter((o) => o.action === "charge");
    const lost = charges.filter((o) => o.final === 200 && (entriesByReason.get(o.reason) ?? 0) === 0).length + voucherLost;
    const doubled = charges.filter((o) => (entriesByReason.get(o.reason) ?? 0) > 1).length + voucherDoubled;
    const phantom = charges.filter((o) => o.final === 422 && (entriesByReason.get(o.reason) ?? 0) > 0).length;
    if (lost) problems.push(`${lost} acknowledged operations missing from the ledger`);
    if (doubled) problems.push(`${doubled} operations in the ledger more than once`);
    if (phantom) problems.push(`${phantom} refused operations in the ledger`);

    return {
      driver: options.driver,
      operations: operations.length,
      accounts: accountIds.length,
      requestsSent,
      acknowledged: operations.filter((o) => o.final === 200).length,
      refusedShortfall: operations.filter((o) => o.final === 422).length,
      replayed,
      cutByKill,
      acknowledgedBeforeKill,
      lost,
      doubled,
      phantom,
      accountsOff,
      restartMs: Math.round(restartMs),
      elapsedMs: Math.round(elapsedMs),
      throughputPerSecond: Math.round((operations.length / elapsedMs) * 1000),
      problems,
    };
  } finally {
    server?.signal("SIGKILL");
    await server?.exited;
    await store.remove();
  }
}
