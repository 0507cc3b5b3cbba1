import { randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../../server/db/client";
import { accounts, ledgerEntries, lines, plans } from "../../server/db/schema";
import { and, eq } from "drizzle-orm";
import { cycleStartOf } from "../../server/domain/usage/cycles";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
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
//
// The carrier's cycle runs in the same mix (issue 24): each account has a prepaid line on a plan with
// 500 minutes and a rate past them, whose usage batches (voice records, replayed with the same
// record ids) are rated from the balance as they are counted, and whose plan falls due today, renewed
// by admins' billing runs racing each other. Rated usage and renewals are amounts the server decides;
// they must each be in the ledger once (a replayed batch rates nothing, a cycle renews once), the
// meters must count every minute once and say the same charged amount as the ledger's usage entries.

export interface ConservationOptions {
  driver: "pglite" | "postgres";
  operations: number;
  accounts: number;
  concurrency: number;
  /** Opening balance of each account (minor units). */
  opening?: number;
  /** Usage batches and billing runs in the mix too (default on). */
  cycle?: boolean;
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
  /** Usage batches sent (each replayed), the usage entries they rated, and the renewals the runs posted. */
  usageBatches: number;
  usageEntries: number;
  renewals: number;
  /** Lines whose meter counts other minutes than were sent, or says another charged amount than the ledger. */
  metersOff: number;
  restartMs: number;
  elapsedMs: number;
  throughputPerSecond: number;
  problems: string[];
}

/** What the vouchers of the top-ups are worth (one batch each); a top-up's amount is one of these. */
const VOUCHER_VALUES = [100, 250, 500, 1_000, 1_500];
/** The reason the ledger gives a voucher's credit (server/domain/money/vouchers.ts). */
const VOUCHER_REASON = "Voucher top-up";
/** The plan of the cycle's lines (seed: 500 minutes, then $0.10 a minute from the balance) and one usage batch: 20 calls of 10 minutes. */
const CYCLE_PLAN = "PRE_5GB";
const CALLS_PER_BATCH = 20;
const CALL_SECONDS = 600;

interface Operation {
  index: number;
  accountId: string;
  action: "redeem-voucher" | "charge" | "usage" | "billing-run";
  amount: number;
  /** The voucher a top-up redeems. */
  code?: string;
  /** A usage batch's line and records. */
  msisdn?: string;
  records?: { id: string; msisdn: string; type: "voice"; startedAt: string; quantity: number }[];
  key: string;
  reason: string;
  /** The final answer: 200 (done) or 422 (a charge the balance could not cover). */
  final?: 200 | 422;
}

/** A PGlite folder or a PostgreSQL database, thrown away afterwards. */
async function throwawayStore(
  driver: "pglite" | "postgres",
): Promise<{ env: Record<string, string>; open: () => ReturnType<typeof openDatabase>; remove(): Promise<void> }> {
  if (driver === "postgres") {
    const database = await createThrowawayPostgresDatabase();
    return {
      env: { DATABASE_URL: database.url },
      open: () => openDatabase({ url: database.url, dataDir: "" }),
      remove: () => database.drop(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "portal-money-"));
  return {
    env: { DATA_DIR: dir },
    open: () => openDatabase({ dataDir: dir }),
    remove: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

/**
 * The operator and N prepaid accounts, each opened with a credit, written before the backend first
 * starts; with the cycle, each has a line whose plan falls due today (its last cycle paid, not this one).
 */
async function prepareAccounts(
  open: () => ReturnType<typeof openDatabase>,
  count: number,
  opening: number,
  tag: string,
  cycle: boolean,
): Promise<{ id: string; lineId: string | null; msisdn: string | null }[]> {
  const database = await open();
  try {
    const secrets = createSecretBox(LOCAL_SECRETS_KEY);
    await seedOperator(database.db, attSeed, secrets);
    const [plan] = await database.db
      .select({ id: plans.id })
      .from(plans)
      .where(and(eq(plans.operatorCode, "ATT"), eq(plans.code, CYCLE_PLAN)));
    const now = new Date();
    const cycleDay = Math.min(now.getUTCDate(), 28);
    const current = cycleStartOf(now, cycleDay);
    const lastPaid = cycleStartOf(new Date(Date.parse(`${current}T00:00:00Z`) - 86_400_000), cycleDay);
    return await database.db.transaction(async (tx) => {
      const rows = await tx
        .insert(accounts)
        .values(
          Array.from({ length: count }, (_, i) => ({
            operatorCode: "ATT",
            ownerUid: null,
            name: `Conservation ${tag} ${i}`,
            type: "prepaid" as const,
          })),
        )
        .returning({ id: accounts.id });
      const made: { id: string; lineId: string | null; msisdn: string | null }[] = [];
      for (const [i, row] of rows.entries()) {
        await tx.insert(ledgerEntries).values({
          operatorCode: "ATT",
          accountId: row.id,
          kind: "top_up",
          amount: opening,
          currency: "USD",
          reason: `opening ${tag}`,
          actorRole: "system",
        });
        if (!cycle) {
          made.push({ id: row.id, lineId: null, msisdn: null });
          continue;
        }
        const msisdn = `+1555${String(randomInt(0, 1000)).padStart(3, "0")}${String(i).padStart(4, "0")}`;
        const [line] = await tx
          .insert(lines)
          .values({
            operatorCode: "ATT",
            accountId: row.id,
            msisdn,
            iccid: `89014199${randomInt(0, 1e6).toString().padStart(6, "0")}${String(i).padStart(5, "0")}`,
            simType: "esim",
            planId: plan!.id,
            status: "active",
            cycleDay,
            renewedCycleStart: lastPaid,
            pukCipher: secrets.seal("12345678"),
          })
          .returning({ id: lines.id });
        made.push({ id: row.id, lineId: line!.id, msisdn });
      }
      return made;
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
    const cycle = options.cycle ?? true;
    const prepared = await prepareAccounts(store.open, options.accounts, opening, tag, cycle);
    const accountIds = prepared.map((a) => a.id);
    server = await startBackendProcess(store.env);
    const token = await signInWithPassword(ADMIN);
    const today = new Date().toISOString().slice(0, 10);

    const operations: Operation[] = Array.from({ length: options.operations }, (_, index) => {
      const account = prepared[index % prepared.length]!;
      const roll = randomInt(0, 100);
      const base = {
        index,
        accountId: account.id,
        key: `money-${tag}-${index}`,
        reason: `conservation ${tag} op ${index}`,
      };
      // With the cycle: one in fifty is an admin's billing run (the first early, while balances are whole), a quarter usage batches of the account's line.
      if (cycle && index % 50 === 7) return { ...base, action: "billing-run" as const, amount: 0 };
      if (cycle && roll < 27) {
        const startedAt = new Date(Date.now() - 60_000).toISOString();
        const records = Array.from({ length: CALLS_PER_BATCH }, (_, k) => ({
          id: `call-${tag}-${index}-${k}`,
          msisdn: account.msisdn!,
          type: "voice" as const,
          startedAt,
          quantity: CALL_SECONDS,
        }));
        return { ...base, action: "usage" as const, amount: 0, msisdn: account.msisdn!, records };
      }
      // Charges a little more often than top-ups, so some run into an empty balance (refused: 422).
      const topUp = cycle ? roll < 27 + 33 : roll < 45;
      return {
        ...base,
        action: topUp ? ("redeem-voucher" as const) : ("charge" as const),
        amount: topUp ? VOUCHER_VALUES[randomInt(0, VOUCHER_VALUES.length)]! : randomInt(1, 1_500),
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
      if (res.status !== 201 || codes.length !== topUps.length)
        throw new Error(`voucher batch of ${value}: ${res.status}`);
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
        const [path, authorization, payload] =
          op.action === "usage"
            ? ["/api/v1/usage-records/batch", `ApiKey ${LOCAL_INGEST_KEY}`, { records: op.records }]
            : op.action === "billing-run"
              ? ["/api/v1/billing-runs", `Bearer ${token}`, { asOf: today }]
              : [
                  `/api/v1/accounts/${op.accountId}/actions/${op.action}`,
                  `Bearer ${token}`,
                  op.code
                    ? { code: op.code, reason: op.reason }
                    : { amount: { amount: op.amount, currency: "USD" }, reason: op.reason },
                ];
        const res = await fetch(`${base}${path}`, {
          method: "POST",
          headers: {
            authorization,
            "x-operator": "ATT",
            "content-type": "application/json",
            ...(op.action === "usage" ? {} : { "idempotency-key": op.key }),
          },
          body: JSON.stringify(payload),
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
      const giveUpAt = Date.now() + 120_000;
      for (let attempt = 0; ; attempt++) {
        if (restarting) await restarting;
        const again = await send(op);
        if (again && (again.status === 200 || again.status === 422)) {
          if (answer && answer.status !== again.status)
            throw new Error(`operation ${op.index}: answered ${answer.status}, then ${again.status} to the same key`);
          answer = again;
          break;
        }
        // 503 is the backend's "a concurrent request touched the same data, nothing was changed, send it
        // again" once its own retries of a serialization failure ran out (a loaded machine): a client retries.
        if (again && again.status !== 409 && again.status !== 503)
          throw new Error(`operation ${op.index}: unexpected ${again.status} ${again.body}`);
        if (Date.now() > giveUpAt) throw new Error(`operation ${op.index}: no final answer after ${attempt} retries`);
        if (!again && !restarting && !server!.alive()) throw new Error("the backend died without being killed");
        // A cut connection waits for the restart (above). A 409 says the first request is still running:
        // an account action's key is claimed in its transaction, so that passes at once; a billing run
        // spans many transactions and reserves its key first, and a run cut by the kill leaves that
        // reservation until it is taken for abandoned (60 s, server/lib/idempotency.ts): ask again, less often.
        if (again?.status === 409 || again?.status === 503)
          await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 20 * 2 ** Math.min(attempt, 6))));
      }
      op.final = answer.status as 200 | 422;
      // A voucher is never short of anything: refusing one (say, as used, after a lost answer) is the bug this proves absent.
      if (op.code && op.final !== 200) throw new Error(`top-up ${op.index}: the voucher was refused (${answer.body})`);
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
    // Set inside killAndRestart: TypeScript's narrowing here does not see assignments in closures.
    const stillRestarting = restarting as Promise<void> | null;
    if (stillRestarting) await stillRestarting;

    // What the restarted backend holds, through the API.
    const problems: string[] = [];
    const entriesByReason = new Map<string, number>();
    let accountsOff = 0;
    let usageEntries = 0;
    let renewals = 0;
    let usageDoubled = 0;
    let metersOff = 0;
    let voucherLost = 0;
    let voucherDoubled = 0;
    for (const accountId of accountIds) {
      const entries: {
        kind: LedgerKind;
        amount: { amount: number };
        reason: string;
        referenceType: string | null;
        referenceId: string | null;
      }[] = [];
      for (let page = 1; ; page++) {
        const res = await fetch(
          `${server.baseUrl}/api/v1/ledger-entries?filter[accountId]=${accountId}&pageSize=100&page=${page}`,
          {
            headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
          },
        );
        const { data, total } = (await res.json()) as { data: typeof entries; total: number };
        entries.push(...data);
        if (data.length === 0 || entries.length >= total) break;
      }
      for (const e of entries) entriesByReason.set(e.reason, (entriesByReason.get(e.reason) ?? 0) + 1);
      // Voucher credits all carry the same reason: per account, their amounts must be exactly those of the acknowledged top-ups.
      const credited = entries
        .filter((e) => e.reason === VOUCHER_REASON)
        .map((e) => e.amount.amount)
        .sort((a, b) => a - b);
      const toppedUp = operations
        .filter((o) => o.accountId === accountId && o.code && o.final === 200)
        .map((o) => o.amount)
        .sort((a, b) => a - b);
      voucherLost += Math.max(0, toppedUp.length - credited.length);
      voucherDoubled += Math.max(0, credited.length - toppedUp.length);
      if (credited.join() !== toppedUp.join() && credited.length === toppedUp.length)
        problems.push(`account ${accountId}: voucher credits ${credited.join()} for top-ups of ${toppedUp.join()}`);
      const sum = entries.reduce((s, e) => s + signOf(e.kind) * e.amount.amount, 0);
      // What the server decided: rated usage and the plan's renewal, each taken from the balance.
      const rated = entries.filter((e) => e.kind === "usage");
      const renewed = entries.filter((e) => e.kind === "renewal");
      usageEntries += rated.length;
      renewals += renewed.length;
      const batches = operations.filter((o) => o.accountId === accountId && o.action === "usage");
      // A batch rates once, in one entry at most: more entries than batches is a batch rated twice.
      if (rated.length > batches.length) {
        usageDoubled += rated.length - batches.length;
        problems.push(`account ${accountId}: ${rated.length} usage entries for ${batches.length} batches`);
      }
      if (renewed.length > 1)
        problems.push(`account ${accountId}: the plan renewed ${renewed.length} times in one cycle`);
      const decided = rated.reduce((s, e) => s + e.amount.amount, 0) + renewed.reduce((s, e) => s + e.amount.amount, 0);
      const expected =
        opening -
        decided +
        operations
          .filter(
            (o) =>
              o.accountId === accountId && o.final === 200 && (o.action === "redeem-voucher" || o.action === "charge"),
          )
          .reduce((s, o) => s + (o.action === "redeem-voucher" ? o.amount : -o.amount), 0);
      const line = prepared.find((a) => a.id === accountId)!;
      if (line.lineId) {
        // Every minute counted once (a replay counts nothing), and the meter's charged amount is the ledger's.
        const meters = (await (
          await fetch(`${server.baseUrl}/api/v1/lines/${line.lineId}/meters`, {
            headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
          })
        ).json()) as {
          type: string;
          used: number;
          charged?: { amount: number };
        }[];
        const voice = meters.find((m) => m.type === "voice");
        const minutes = (batches.length * CALLS_PER_BATCH * CALL_SECONDS) / 60;
        const charged = rated.reduce((s, e) => s + e.amount.amount, 0);
        if (!voice || voice.used !== minutes || (voice.charged?.amount ?? 0) !== charged) {
          metersOff++;
          problems.push(
            `line ${line.lineId}: meter ${voice?.used} min charged ${voice?.charged?.amount}, sent ${minutes} min, ledger usage ${charged}`,
          );
        }
      }
      const account = (await (
        await fetch(`${server.baseUrl}/api/v1/accounts/${accountId}`, {
          headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
        })
      ).json()) as {
        balance: { amount: number };
      };
      if (account.balance.amount !== expected || sum !== expected) {
        accountsOff++;
        problems.push(
          `account ${accountId}: balance ${account.balance.amount}, sum of entries ${sum}, expected ${expected}`,
        );
      }
    }
    const charges = operations.filter((o) => o.action === "charge");
    const lost =
      charges.filter((o) => o.final === 200 && (entriesByReason.get(o.reason) ?? 0) === 0).length + voucherLost;
    const doubled =
      charges.filter((o) => (entriesByReason.get(o.reason) ?? 0) > 1).length + voucherDoubled + usageDoubled;
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
      usageBatches: operations.filter((o) => o.action === "usage").length,
      usageEntries,
      renewals,
      metersOff,
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
