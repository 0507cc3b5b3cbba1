import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operators } from "../../server/db/schema";
import type { Account } from "../../src/resources/accounts";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { rowsOf } from "../../server/db/rowsOf";

// Card top-ups (issue 9, item 4): only where the operator's top-up payment setting names a gateway
// (the sandbox gateway's own paths are in cardTopUps.test.ts).
// ATT's setting is empty, so the API says card top-up is unavailable and points at vouchers; every
// refusal writes nothing.
let backend: TestBackend;
let alexPrepaid: Account;
let alexPostpaid: Account;
let sam: Account;
let taylor: Account;
const usd = (amount: number) => ({ amount, currency: "USD" });
const TOKEN = "tok_sandbox_0123456789";

const topUp = (body: unknown, as?: string, operator?: string) =>
  backend.send("POST", "/api/v1/top-ups", { as, operator, body });
const entryCount = async () =>
  Number(
    rowsOf<{ n: number }>(await backend.database.db.execute(sql`select count(*)::int as n from ledger_entries`))[0]!.n,
  );

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const mine = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>();
  alexPrepaid = mine.data.find((a) => a.type === "prepaid")!;
  alexPostpaid = mine.data.find((a) => a.type === "postpaid")!;
  sam = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data[0]!;
  taylor = (await backend.get("/api/v1/accounts", { as: TAYLOR, operator: "TMO" })).json<{ data: Account[] }>()
    .data[0]!;
});

afterAll(async () => {
  await backend?.close();
});

describe("POST /top-ups", () => {
  it("says card top-up is unavailable where the operator's setting is empty (ATT), offers vouchers, and writes nothing", async () => {
    const before = await entryCount();
    const problem = expectProblem(
      await topUp({ accountId: alexPrepaid.id, amount: usd(1000), cardToken: TOKEN }, ALEX),
      422,
      "paymentMethodId",
    );
    expect(problem.detail).toMatch(/card top-up is unavailable/i);
    expect(problem.detail).toMatch(/voucher/i);
    // Staff acting for the subscriber get the same answer.
    expectProblem(await topUp({ accountId: alexPrepaid.id, amount: usd(1000), cardToken: TOKEN }, AGENT), 422);
    expect(await entryCount()).toBe(before);
    const balance = (await backend.get(`/api/v1/accounts/${alexPrepaid.id}`, { as: ALEX })).json<Account>().balance;
    expect(balance).toEqual(alexPrepaid.balance);
  });

  it("refuses anonymous callers, another subscriber's account, another operator's account and malformed input", async () => {
    const good = { accountId: alexPrepaid.id, amount: usd(1000), cardToken: TOKEN };
    const before = await entryCount();
    expectProblem(await topUp(good), 401);
    expectProblem(await topUp({ ...good, accountId: sam.id }, ALEX), 404);
    expectProblem(await topUp(good, SAM), 404);
    expectProblem(await topUp(good, TAYLOR, "TMO"), 404);
    expectProblem(await topUp(good, TMO_ADMIN, "TMO"), 404);
    expectProblem(await topUp({ ...good, accountId: taylor.id }, ALEX), 404);
    expectProblem(await topUp({ ...good, accountId: "not-a-uuid" }, ALEX), 400, "accountId");
    expectProblem(await topUp({ ...good, amount: usd(10.5) }, ALEX), 400, "amount.amount");
    expectProblem(await topUp({ ...good, amount: usd(0) }, ALEX), 400, "amount.amount");
    expectProblem(await topUp({ ...good, amount: usd(50_001) }, ALEX), 400, "amount.amount");
    expectProblem(await topUp({ ...good, amount: { amount: 100, currency: "usd" } }, ALEX), 400, "amount.currency");
    expectProblem(await topUp({ accountId: alexPrepaid.id, amount: usd(1000) }, ALEX), 400, "paymentMethodId");
    expectProblem(await topUp({ ...good, cardNumber: "4242424242424242" }, ALEX), 400);
    expectProblem(await topUp({ ...good, cardToken: "4242 4242 4242 4242" }, ALEX), 400, "cardToken");
    expectProblem(await topUp({ ...good, amount: { amount: 100, currency: "EUR" } }, ALEX), 422, "amount.currency");
    expectProblem(await topUp({ ...good, accountId: alexPostpaid.id }, ALEX), 422, "accountId");
    expect(await entryCount()).toBe(before);
  });

  it("does not pretend to take a card where the setting names a gateway this server is not wired to (503), and writes nothing", async () => {
    const before = await entryCount();
    const [tmo] = await backend.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "TMO"));
    await backend.database.db
      .update(operators)
      .set({ settings: { ...tmo!.settings, topUpPayment: "acme-pay" } })
      .where(eq(operators.code, "TMO"));
    try {
      // The operator directory caches settings for a few seconds: wait for the change to be seen.
      await expect
        .poll(
          async () =>
            (await topUp({ accountId: taylor.id, amount: usd(1000), cardToken: TOKEN }, TAYLOR, "TMO")).statusCode,
          { timeout: 10_000 },
        )
        .toBe(503);
      expect(await entryCount()).toBe(before);
    } finally {
      await backend.database.db.update(operators).set({ settings: tmo!.settings }).where(eq(operators.code, "TMO"));
    }
  });
});
