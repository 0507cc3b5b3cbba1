import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, lines } from "../../server/db/schema";
import type { Home, Meter } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { joinAccount, newSubscriber } from "../support/accountPeople";
import { ADMIN, ALEX, TAYLOR } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// Members see no money (issue 28): GET /home and GET /lines/{id}/meters leave out, for a member of the
// account, the plan's price, a grace period's price, what usage past the allowance cost and the
// account's balance or amount due: not hidden by the page, never sent. The holder and a manager get
// all of it. A line whose cancellation is scheduled carries `cancelsOn`. On TEST_DB.

let backend: TestBackend;
const db = () => backend.database.db;
const alex = { prepaidAccountId: "", prepaidLineId: "", postpaidAccountId: "", postpaidLineId: "" };

const homeOf = async (who: { as?: string; token?: string; operator?: string }) => {
  const res = await backend.send("GET", "/api/v1/home", who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Home>();
};

/** Any money in an answer: every money value of the API is `{amount, currency}`. */
const hasMoney = (value: unknown) => /"(amount|currency)"/.test(JSON.stringify(value));

beforeAll(async () => {
  backend = await startTestBackend();
  const owned = await db().select().from(accounts).where(eq(accounts.ownerUid, "demo-alex"));
  alex.prepaidAccountId = owned.find((a) => a.type === "prepaid")!.id;
  alex.postpaidAccountId = owned.find((a) => a.type === "postpaid")!.id;
  const [prepaidLine] = await db().select().from(lines).where(eq(lines.msisdn, "+12025550101"));
  const [postpaidLine] = await db().select().from(lines).where(eq(lines.msisdn, "+12025550102"));
  alex.prepaidLineId = prepaidLine!.id;
  alex.postpaidLineId = postpaidLine!.id;
  // The prepaid line in grace (its renewal unpaid): its home card carries the price that renews it.
  await db().update(lines).set({ status: "grace", graceEndsOn: "2099-01-08" }).where(eq(lines.id, alex.prepaidLineId));
});

afterAll(async () => {
  await backend?.close();
});

describe("a member's Home and meters carry no money", () => {
  it("the holder sees the plan's price, the grace price, the charges past the allowance and the account's money", async () => {
    const home = await homeOf({ as: ALEX });
    const prepaid = home.lines.find((l) => l.id === alex.prepaidLineId)!;
    expect(prepaid.plan.price).toMatchObject({ amount: expect.any(Number) as number, currency: "USD" });
    expect(prepaid.grace).toMatchObject({ endsOn: "2099-01-08", price: { currency: "USD" } });
    expect(prepaid.meters.every((m) => m.charged?.currency === "USD")).toBe(true);
    expect(home.accounts.map((a) => a.id).sort()).toEqual([alex.prepaidAccountId, alex.postpaidAccountId].sort());
    const meters = await backend.get(`/api/v1/lines/${alex.prepaidLineId}/meters`, { as: ALEX });
    expect(meters.json<Meter[]>().every((m) => m.charged !== undefined)).toBe(true);
  });

  it("a member gets their line, its plan by name, its meters and its grace day, and no amount at all", async () => {
    const member = await newSubscriber(backend, "money-member");
    await joinAccount(backend, alex.prepaidAccountId, member, "member", [alex.prepaidLineId]);
    const home = await homeOf({ token: member.token });
    expect(home.lines.map((l) => l.id)).toEqual([alex.prepaidLineId]);
    const [line] = home.lines;
    expect(line!.plan.name).toBeTruthy();
    expect(line!.plan).not.toHaveProperty("price");
    expect(line!.grace).toEqual({ endsOn: "2099-01-08" });
    expect(line!.meters.length).toBeGreaterThan(0);
    expect(line!.meters.every((m) => !("charged" in m))).toBe(true);
    expect(home.accounts).toEqual([]);
    expect(hasMoney(home)).toBe(false);

    const meters = await backend.send("GET", `/api/v1/lines/${alex.prepaidLineId}/meters`, { token: member.token });
    expect(meters.statusCode, meters.body).toBe(200);
    expect(meters.json<Meter[]>().length).toBeGreaterThan(0);
    expect(hasMoney(meters.json())).toBe(false);
    // A line of the account not given to them is not theirs to read.
    const [other] = await db()
      .insert(lines)
      .values({
        operatorCode: "ATT",
        accountId: alex.prepaidAccountId,
        msisdn: "+12025550166",
        iccid: "8901260000000016666",
        simType: "physical",
        planId: (await db().select().from(lines).where(eq(lines.id, alex.prepaidLineId)))[0]!.planId,
        status: "active",
        cycleDay: 1,
      })
      .returning({ id: lines.id });
    expectProblem(await backend.send("GET", `/api/v1/lines/${other!.id}/meters`, { token: member.token }), 404);
    expect((await homeOf({ token: member.token })).lines.map((l) => l.id)).toEqual([alex.prepaidLineId]);
  });

  it("a manager sees the money of the account they manage", async () => {
    const manager = await newSubscriber(backend, "money-manager");
    await joinAccount(backend, alex.postpaidAccountId, manager, "manager", []);
    const home = await homeOf({ token: manager.token });
    const line = home.lines.find((l) => l.id === alex.postpaidLineId)!;
    expect(line.plan.price).toMatchObject({ currency: "USD" });
    expect(home.accounts.map((a) => a.id)).toEqual([alex.postpaidAccountId]);
    expect(home.accounts[0]!.amountDue).toMatchObject({ currency: "USD" });
  });

  it("a line to be cancelled at the end of its cycle says the day on Home", async () => {
    const before = (await homeOf({ as: ALEX })).lines.find((l) => l.id === alex.postpaidLineId)!;
    expect(before).not.toHaveProperty("cancelsOn");
    const res = await backend.send("POST", `/api/v1/lines/${alex.postpaidLineId}/actions/cancel`, {
      as: ALEX,
      body: { when: "cycle-end" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await homeOf({ as: ALEX })).lines.find((l) => l.id === alex.postpaidLineId)!;
    expect(after.cancelsOn).toBe(res.json<{ cancelsOn: string }>().cancelsOn);
  });

  it("Home: no token 401; staff 403; another operator's subscriber sees only their own lines", async () => {
    expect((await backend.send("GET", "/api/v1/home", {})).statusCode).toBe(401);
    expectProblem(await backend.send("GET", "/api/v1/home", { as: ADMIN }), 403);
    const taylor = await homeOf({ as: TAYLOR, operator: "TMO" });
    expect(taylor.lines.some((l) => l.id === alex.prepaidLineId || l.id === alex.postpaidLineId)).toBe(false);
    expect(taylor.lines.length).toBeGreaterThan(0);
  });
});
