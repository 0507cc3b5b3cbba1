import type { LightMyRequestResponse } from "fastify";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, ledgerEntries } from "../../server/db/schema";
import { postLedgerEntry, type NewLedgerEntry } from "../../server/domain/money/ledger";
import { readAccountMoney } from "../../server/domain/money/accountMoney";
import { ProblemError } from "../../server/errors";
import { textIn } from "../../server/i18n/words";
import type { Account } from "../../src/resources/accounts";
import { signOf, type LedgerEntry } from "../../src/resources/ledgerEntries";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { anyString, stringMatching } from "../support/matchers";

// The ledger core (issue 9): balances derived from an append-only ledger, guarded by the database
// itself, read through the engine; on the real database (TEST_DB) and the real Auth emulator.
let backend: TestBackend;
let alexPrepaid: Account;
let alexPostpaid: Account;
let samAccount: Account;

const list = <T>(res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return Promise.resolve(res.json<{ data: T[]; total: number }>());
};

const entryFor = (account: Account, over: Partial<NewLedgerEntry> = {}): NewLedgerEntry => ({
  operatorCode: "ATT",
  accountId: account.id,
  kind: "top_up",
  amount: 1000,
  currency: "USD",
  reason: "test",
  actorUid: "demo-admin",
  actorRole: "admin",
  ...over,
});

const post = (entry: NewLedgerEntry) => backend.database.db.transaction((tx) => postLedgerEntry(tx, entry));

/** A database error's message, or "" when the statement went through. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "";
  } catch (error) {
    return String((error as { cause?: Error }).cause?.message ?? (error as Error).message);
  }
}

async function balanceOf(accountId: string) {
  const [row] = await backend.database.db
    .select({ balance: accounts.balanceAmount })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row!.balance;
}

async function sumOfEntries(accountId: string) {
  const rows = await backend.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
  return rows.reduce((sum, row) => sum + signOf(row.kind) * row.amount, 0);
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const mine = await list<Account>(await backend.get("/api/v1/accounts", { as: ALEX }));
  alexPrepaid = mine.data.find((a) => a.type === "prepaid")!;
  alexPostpaid = mine.data.find((a) => a.type === "postpaid")!;
  samAccount = (await list<Account>(await backend.get("/api/v1/accounts", { as: SAM }))).data[0]!;
});

afterAll(async () => {
  await backend?.close();
});

describe("accounts show their money", () => {
  it("a prepaid account has its balance (the seeded top-ups less charges), a postpaid one its amount due (the open bill)", async () => {
    const prepaid = (await backend.get(`/api/v1/accounts/${alexPrepaid.id}`, { as: ALEX })).json<Account>();
    expect(prepaid.balance).toEqual({ amount: 5000 - 3500 + 2000 + 2500 - 3500 + 1500, currency: "USD" });
    expect(prepaid.amountDue).toBeNull();
    const postpaid = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    // POST_50GB at $65.00 and the seeded $15.00 of data beyond the allowance, plus 8.25 % tax ($6.60); the two paid bills are not due.
    expect(postpaid.amountDue).toEqual({ amount: 6500 + 1500 + 660, currency: "USD" });
    expect(postpaid.balance).toBeNull();
    const money = await readAccountMoney(backend.database.db, [alexPrepaid.id, alexPostpaid.id]);
    expect(money.get(alexPrepaid.id)).toEqual({ balance: prepaid.balance });
    // The open bill is past its due date in the seed: the home asks to pay that one first.
    expect(money.get(alexPostpaid.id)).toEqual({
      amountDue: postpaid.amountDue,
      overdueBill: {
        id: anyString(),
        total: postpaid.amountDue,
        dueOn: stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    });
  });

  it("staff see the same figures on any account of their operator; another operator's staff do not find it", async () => {
    const seen = (await backend.get(`/api/v1/accounts/${alexPrepaid.id}`, { as: AGENT })).json<Account>();
    expect(seen.balance).toEqual(alexPrepaid.balance);
    expectProblem(await backend.get(`/api/v1/accounts/${alexPrepaid.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
  });
});

describe("GET /ledger-entries", () => {
  it("lists an account's entries, newest first, and the last balance after is the balance", async () => {
    const { data, total } = await list<LedgerEntry>(
      await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPrepaid.id}`, { as: ALEX }),
    );
    expect(total).toBe(6);
    expect(data.map((e) => e.kind)).toEqual(["top_up", "charge", "top_up", "top_up", "charge", "top_up"]);
    expect(data[0]!.balanceAfter).toEqual(alexPrepaid.balance);
    expect(data.reduce((sum, e) => sum + signOf(e.kind) * e.amount.amount, 0)).toBe(alexPrepaid.balance!.amount);
  });

  it("a subscriber sees only their own accounts' entries; staff all of their operator's; another operator none", async () => {
    const samSees = await list<LedgerEntry>(
      await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPrepaid.id}`, { as: SAM }),
    );
    expect(samSees.total).toBe(0);
    const alexAll = await list<LedgerEntry>(await backend.get("/api/v1/ledger-entries?pageSize=100", { as: ALEX }));
    expect(new Set(alexAll.data.map((e) => e.accountId))).toEqual(new Set([alexPrepaid.id, alexPostpaid.id]));
    const one = alexAll.data[0]!;
    expectProblem(await backend.get(`/api/v1/ledger-entries/${one.id}`, { as: SAM }), 404);
    expect((await backend.get(`/api/v1/ledger-entries/${one.id}`, { as: AGENT })).statusCode).toBe(200);
    const agentSees = await list<LedgerEntry>(
      await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPrepaid.id}`, { as: AGENT }),
    );
    expect(agentSees.total).toBe(6);
    const tmo = await list<LedgerEntry>(
      await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPrepaid.id}`, {
        as: TMO_AGENT,
        operator: "TMO",
      }),
    );
    expect(tmo.total).toBe(0);
    expectProblem(await backend.get(`/api/v1/ledger-entries/${one.id}`, { as: TAYLOR, operator: "TMO" }), 404);
    // A token of one operator with another operator's header is refused outright.
    expect((await backend.get(`/api/v1/ledger-entries/${one.id}`, { as: TMO_AGENT })).statusCode).toBe(403);
  });

  it("refuses anonymous callers, undeclared filters and writes", async () => {
    expectProblem(await backend.get(`/api/v1/ledger-entries?filter[accountId]=${alexPrepaid.id}`), 401);
    expectProblem(await backend.get("/api/v1/ledger-entries?filter[reason]=x", { as: AGENT }), 400, "filter[reason]");
    expectProblem(await backend.get("/api/v1/ledger-entries?filter[kind]=gift", { as: AGENT }), 400);
    const created = await backend.send("POST", "/api/v1/ledger-entries", {
      as: ADMIN,
      body: { accountId: samAccount.id, kind: "top_up", amount: { amount: 100, currency: "USD" } },
    });
    expect(created.statusCode).toBe(404);
    const id = (await list<LedgerEntry>(await backend.get("/api/v1/ledger-entries", { as: ADMIN }))).data[0]!.id;
    expect((await backend.send("DELETE", `/api/v1/ledger-entries/${id}`, { as: ADMIN })).statusCode).toBe(404);
    expect(
      (await backend.send("PATCH", `/api/v1/ledger-entries/${id}`, { as: ADMIN, body: { reason: "x" } })).statusCode,
    ).toBe(404);
  });
});

describe("postLedgerEntry", () => {
  it("credits and debits a prepaid balance in the caller's transaction and answers the balance after", async () => {
    const start = await balanceOf(samAccount.id);
    const credit = await post(entryFor(samAccount, { amount: 1500 }));
    expect(credit.balance).toEqual({ amount: start + 1500, currency: "USD" });
    expect(credit.entry.balanceAfter).toEqual(credit.balance);
    const debit = await post(
      entryFor(samAccount, { kind: "charge", amount: 700, reference: { type: "add-on", id: "data-1gb" } }),
    );
    expect(debit.balance).toEqual({ amount: start + 800, currency: "USD" });
    expect(debit.entry).toMatchObject({
      kind: "charge",
      amount: { amount: 700, currency: "USD" },
      referenceType: "add-on",
      referenceId: "data-1gb",
    });
    expect(await balanceOf(samAccount.id)).toBe(await sumOfEntries(samAccount.id));
  });

  it("refuses a charge beyond the balance with 422 naming the shortfall, and writes nothing", async () => {
    const balance = await balanceOf(samAccount.id);
    const error = await post(entryFor(samAccount, { kind: "charge", amount: balance + 250 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    const problem = error as ProblemError;
    expect(problem.status).toBe(422);
    // Its words are written for the reader when sent: in English, as before.
    expect(problem.errors?.map((e) => ({ path: e.path, message: textIn("en", e.message) }))).toEqual([
      { path: "amount", message: "short by $2.50" },
    ]);
    expect(problem.extensions).toMatchObject({ shortfall: { amount: 250, currency: "USD" } });
    expect(await balanceOf(samAccount.id)).toBe(balance);
  });

  it("a rolled-back caller's transaction takes its entry and balance with it", async () => {
    const balance = await balanceOf(samAccount.id);
    const entries = await sumOfEntries(samAccount.id);
    await backend.database.db
      .transaction(async (tx) => {
        await postLedgerEntry(tx, entryFor(samAccount, { amount: 999 }));
        throw new Error("the caller failed after posting");
      })
      .catch(() => {});
    expect(await balanceOf(samAccount.id)).toBe(balance);
    expect(await sumOfEntries(samAccount.id)).toBe(entries);
  });

  it("the same idempotency key on the same account posts once; with another amount it is refused", async () => {
    const balance = await balanceOf(samAccount.id);
    const first = await post(entryFor(samAccount, { amount: 300, idempotencyKey: "ledger-test-key-1" }));
    const again = await post(entryFor(samAccount, { amount: 300, idempotencyKey: "ledger-test-key-1" }));
    expect(again.entry.id).toBe(first.entry.id);
    expect(await balanceOf(samAccount.id)).toBe(balance + 300);
    const other = await post(entryFor(samAccount, { amount: 301, idempotencyKey: "ledger-test-key-1" })).catch(
      (e: unknown) => e as ProblemError,
    );
    expect((other as ProblemError).status).toBe(422);
    expect(await balanceOf(samAccount.id)).toBe(balance + 300);
  });

  it("a postpaid charge is stored unbilled and moves no balance", async () => {
    const before = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    const posted = await post(entryFor(alexPostpaid, { kind: "charge", amount: 1000 }));
    expect(posted.balance).toBeNull();
    expect(posted.entry.balanceAfter).toBeNull();
    const after = (await backend.get(`/api/v1/accounts/${alexPostpaid.id}`, { as: ALEX })).json<Account>();
    expect(after.amountDue).toEqual(before.amountDue);
  });

  it("refuses another currency, another operator's account and a non-positive amount", async () => {
    const refused = (entry: NewLedgerEntry) =>
      post(entry).then(
        () => null,
        (e: unknown) => e as ProblemError,
      );
    expect((await refused(entryFor(samAccount, { currency: "EUR" })))?.errors?.[0]?.path).toBe("currency");
    expect((await refused(entryFor(samAccount, { operatorCode: "TMO" })))?.status).toBe(404);
    expect((await refused(entryFor(samAccount, { amount: 0 })))?.status).toBe(422);
    expect((await refused(entryFor(samAccount, { amount: 1.5 })))?.status).toBe(422);
  });
});

describe("the database guards the ledger itself", () => {
  const db = () => backend.database.db;

  it("entries cannot be changed or deleted, and a balance moves only through an entry", async () => {
    const [entry] = await db().select().from(ledgerEntries).where(eq(ledgerEntries.accountId, samAccount.id)).limit(1);
    expect(
      await refusal(() => db().update(ledgerEntries).set({ amount: 1 }).where(eq(ledgerEntries.id, entry!.id))),
    ).toMatch(/append-only/);
    expect(await refusal(() => db().delete(ledgerEntries).where(eq(ledgerEntries.id, entry!.id)))).toMatch(
      /append-only/,
    );
    expect(await refusal(() => db().execute(sql`truncate ledger_entries cascade`))).toMatch(/append-only/);
    expect(
      await refusal(() =>
        db().update(accounts).set({ balanceAmount: 1_000_000 }).where(eq(accounts.id, samAccount.id)),
      ),
    ).toMatch(/only through ledger_entries/);
    // Other changes to the account still go through.
    expect(
      await refusal(() => db().update(accounts).set({ name: "Sam Chen" }).where(eq(accounts.id, samAccount.id))),
    ).toBe("");
  });

  it("refuses a zero amount, a lowercase currency, a negative balance and a second use of a key, even from raw SQL", async () => {
    const base = {
      operatorCode: "ATT",
      accountId: samAccount.id,
      kind: "top_up" as const,
      amount: 100,
      currency: "USD",
      reason: "raw",
      actorRole: "admin",
    };
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, amount: 0 }),
      ),
    ).toMatch(/ledger_entries_amount_positive/);
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, currency: "usd" }),
      ),
    ).toMatch(/ledger_entries_currency_iso|kept in/);
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, currency: "EUR" }),
      ),
    ).toMatch(/kept in USD/);
    const balance = await balanceOf(samAccount.id);
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, kind: "charge", amount: balance + 1 }),
      ),
    ).toMatch(/accounts_balance_nonnegative/);
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, idempotencyKey: "raw-key" }),
      ),
    ).toBe("");
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, idempotencyKey: "raw-key" }),
      ),
    ).toMatch(/ledger_entries_idempotency_uq/);
    expect(
      await refusal(() =>
        db()
          .insert(ledgerEntries)
          .values({ ...base, accountId: samAccount.id, operatorCode: "TMO" }),
      ),
    ).toMatch(/not of operator TMO/);
    expect(await balanceOf(samAccount.id)).toBe(await sumOfEntries(samAccount.id));
  });

  it("every account's balance equals the sum of its entries", async () => {
    const rows = await db()
      .select({ id: accounts.id, balance: accounts.balanceAmount })
      .from(accounts)
      .where(and(eq(accounts.type, "prepaid")));
    for (const row of rows) expect(row.balance, row.id).toBe(await sumOfEntries(row.id));
  });
});
