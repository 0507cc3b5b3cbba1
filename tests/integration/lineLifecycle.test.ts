import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  invoices,
  ledgerEntries,
  lines,
  notifications,
  numberInventory,
  orders,
} from "../../server/db/schema";
import { closeCycles } from "../../server/domain/money/cycleClose";
import { cycleStartOf, nextCycleStart } from "../../server/domain/usage/cycles";
import { runDueCancellations } from "../../server/domain/lines/scheduledCancellations";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";
import type { Account } from "../../src/resources/accounts";
import type { Line } from "../../src/resources/lines";
import type { AvailableNumber } from "../../src/resources/numberInventory";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { withoutUuids } from "../support/withoutUuids";

// The life of a line (issue 28 items 2 and 4): add a line (eSIM at once, posted SIM pending until
// activated, a number brought in on a temporary one), change its number, cancel it; billing from
// activation only; access per role; every refusal changing nothing.

type Plan = { id: string; kind: string; code: string; status: string };
type Answer = Record<string, unknown> & {
  result?: Record<string, unknown>;
  order?: { id: string; type: string; state: string };
};
type Quote = {
  summary: string;
  lines: { label: string; amount?: { amount: number } }[];
  total: { amount: number } | null;
};

let backend: TestBackend;
let alexPrepaid: Account;
let alexPostpaid: Account;
let sam: Account;
let tmoAccountId: string;
let plans: Plan[];
const secrets = createSecretBox(LOCAL_SECRETS_KEY);

const planOf = (kind: string) => plans.find((p) => p.kind === kind && p.status === "active")!;

async function act(
  resource: "accounts" | "lines",
  id: string,
  action: string,
  as: string,
  body: Record<string, unknown>,
  options: { operator?: string; preview?: boolean } = {},
) {
  return backend.send("POST", `/api/v1/${resource}/${id}/actions/${action}${options.preview ? "/preview" : ""}`, {
    token: await signInWithPassword(as),
    body,
    operator: options.operator,
  });
}
async function ok(
  resource: "accounts" | "lines",
  id: string,
  action: string,
  as: string,
  body: Record<string, unknown>,
) {
  const res = await act(resource, id, action, as, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Answer>();
}
async function preview(
  resource: "accounts" | "lines",
  id: string,
  action: string,
  as: string,
  body: Record<string, unknown>,
) {
  const res = await act(resource, id, action, as, body, { preview: true });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Quote>();
}
async function freeNumber(areaCode = "202", skip = 0): Promise<string> {
  const res = await backend.get(`/api/v1/number-inventory?areaCode=${areaCode}`, { as: ADMIN });
  return res.json<{ data: AvailableNumber[] }>().data[skip]!.msisdn;
}
const lineRow = async (id: string) => (await backend.database.db.select().from(lines).where(eq(lines.id, id)))[0]!;
const stock = async (msisdn: string) =>
  (
    await backend.database.db
      .select()
      .from(numberInventory)
      .where(and(eq(numberInventory.operatorCode, "ATT"), eq(numberInventory.msisdn, msisdn)))
  )[0];
const lineCount = async () => (await backend.database.db.select({ id: lines.id }).from(lines)).length;
const esimLine = (msisdn: string, planId: string) => ({ planId, number: { msisdn }, sim: { simType: "esim" } });
const ADDRESS = { line1: "1 Main St", city: "Washington", state: "DC", zip: "20001" };

beforeAll(async () => {
  backend = await startTestBackend();
  const mine = async (as: string, operator?: string) =>
    (await backend.get("/api/v1/accounts?sort=name", { as, operator })).json<{ data: Account[] }>().data;
  const alexs = await mine(ALEX);
  alexPrepaid = alexs.find((a) => a.type === "prepaid")!;
  alexPostpaid = alexs.find((a) => a.type === "postpaid")!;
  [sam] = (await mine(SAM)) as [Account];
  tmoAccountId = (await mine(TAYLOR, "TMO"))[0]!.id;
  plans = (await backend.get("/api/v1/plans?pageSize=100", { as: ADMIN })).json<{ data: Plan[] }>().data;
});

afterAll(async () => {
  await backend?.close();
});

describe("add a line", () => {
  it("an eSIM with a new number is active at once: prorated first charge from the balance, QR code, new_line order, notice, audit", async () => {
    const msisdn = await freeNumber();
    const plan = planOf("prepaid");
    const quote = await preview("accounts", alexPrepaid.id, "add-line", ALEX, esimLine(msisdn, plan.id));
    expect(quote.summary).toBe("resources.accounts.preview.addLine");
    expect(quote.lines.map((l) => l.label)).toContain("resources.accounts.preview.noDeposit");
    expect(quote.total!.amount).toBeGreaterThan(0);

    const answer = await ok("accounts", alexPrepaid.id, "add-line", ALEX, esimLine(msisdn, plan.id));
    expect(answer.result).toMatchObject({ msisdn, status: "active", simType: "esim" });
    expect(String(answer.result!.activationCode)).toMatch(/^LPA:1\$smdp\.att\.example\$[0-9A-F]{32}$/);
    expect(answer.order).toMatchObject({ type: "new_line", state: "completed" });

    const lineId = String(answer.result!.lineId);
    const line = await lineRow(lineId);
    expect(line).toMatchObject({ status: "active", msisdn, simType: "esim", accountId: alexPrepaid.id });
    expect(line.iccid).toMatch(/^89\d{17}$/);
    expect(line.activatedAt).not.toBeNull();
    expect(await stock(msisdn)).toMatchObject({ status: "assigned", lineId });

    const [charge] = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.referenceType, "line"), eq(ledgerEntries.referenceId, lineId)));
    expect(charge).toMatchObject({ kind: "renewal", amount: quote.total!.amount });

    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "line.added")));
    expect(notices.map((n) => n.params.msisdn)).toContain(msisdn);
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "accounts.add-line"), eq(auditEvents.targetId, alexPrepaid.id)));
    expect(audit).toMatchObject({ actorRole: "subscriber" });

    // The new line is the holder's like any other.
    expect((await backend.get(`/api/v1/lines/${lineId}`, { as: ALEX })).statusCode).toBe(200);
  });

  it("a posted SIM stays pending and unbilled until activate-sim; then it is charged prorated and its order completes", async () => {
    const msisdn = await freeNumber();
    const plan = planOf("postpaid");
    const body = { planId: plan.id, number: { msisdn }, sim: { simType: "physical", address: ADDRESS } };
    const answer = await ok("accounts", alexPostpaid.id, "add-line", ALEX, body);
    expect(answer.result).toMatchObject({ status: "pending", simType: "physical", activationCode: null });
    expect(answer.order).toMatchObject({ type: "new_line", state: "acknowledged" });
    const lineId = String(answer.result!.lineId);
    expect(await lineRow(lineId)).toMatchObject({ status: "pending", iccid: null });
    const charges = () =>
      backend.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.referenceType, "line"), eq(ledgerEntries.referenceId, lineId)));
    expect(await charges()).toHaveLength(0);

    // A cycle closing while the SIM is in the post bills nothing for the line.
    await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      asOf: new Date(Date.now() + 35 * 86_400_000),
      accountIds: [alexPostpaid.id],
    });
    expect(await charges()).toHaveLength(0);
    await backend.database.db
      .delete(invoices)
      .where(eq(invoices.accountId, alexPostpaid.id))
      .catch(() => undefined);

    // Bad input changes nothing: a malformed ICCID (400), one in use on another line (409).
    const samIccid = (await backend.get("/api/v1/lines", { as: SAM })).json<{ data: Line[] }>().data[0]!.iccid!;
    expectProblem(await act("lines", lineId, "activate-sim", ALEX, { iccid: "1234" }), 400, "iccid");
    expectProblem(await act("lines", lineId, "activate-sim", ALEX, { iccid: samIccid }), 409, "iccid");
    expect(await lineRow(lineId)).toMatchObject({ status: "pending", iccid: null });

    const iccid = "8901410999999999991";
    const quote = await preview("lines", lineId, "activate-sim", ALEX, { iccid });
    const done = await ok("lines", lineId, "activate-sim", ALEX, { iccid });
    expect(done).toMatchObject({ status: "active", iccid });
    expect(done.order).toMatchObject({ type: "new_line", state: "completed", id: answer.order!.id });
    const [charge] = await charges();
    expect(charge).toMatchObject({ kind: "charge", amount: quote.total!.amount });
    // Not pending any more: a second activation is refused at its state.
    expectProblem(await act("lines", lineId, "activate-sim", ALEX, { iccid }), 409, "status");
  });

  it("the close of the cycle a postpaid line was activated in bills the others' plan fees, not its (its first charge paid it)", async () => {
    // A generated postpaid account (+12025550119, cycle day 10) gets a line by post, activated today.
    const [seeded] = await backend.database.db.select().from(lines).where(eq(lines.msisdn, "+12025550119"));
    const added = await ok("accounts", seeded!.accountId, "add-line", ADMIN, {
      planId: planOf("postpaid").id,
      number: { msisdn: await freeNumber("301", 2) },
      sim: { simType: "physical", address: ADDRESS },
      reason: "Walk-in customer at the store",
    });
    const lineId = String(added.result!.lineId);
    await ok("lines", lineId, "activate-sim", ADMIN, { iccid: "8901410999999999975", reason: "SIM handed over" });
    const start = cycleStartOf(new Date(), seeded!.cycleDay);
    const { issued } = await closeCycles(backend.database.db, {
      operatorCode: "ATT",
      asOf: new Date(`${nextCycleStart(start)}T12:00:00Z`),
      accountIds: [seeded!.accountId],
    });
    expect(issued).toHaveLength(1);
    const entries = await backend.database.db
      .select({ key: ledgerEntries.idempotencyKey })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, seeded!.accountId));
    const keys = entries.map((e) => e.key);
    expect(keys).toContain(`plan-fee:${seeded!.id}:${start}`);
    expect(keys).toContain(`first-charge:${lineId}`);
    expect(keys.filter((k) => k?.startsWith(`plan-fee:${lineId}`))).toEqual([]);
  });

  it("an imported (pending) line is activated the same way", async () => {
    // A generated postpaid account's line (+12025550113), as a CSV import leaves it: pending.
    const [seeded] = await backend.database.db.select().from(lines).where(eq(lines.msisdn, "+12025550113"));
    await backend.database.db.update(lines).set({ status: "pending" }).where(eq(lines.id, seeded!.id));
    const done = await ok("lines", seeded!.id, "activate-sim", ADMIN, { iccid: seeded!.iccid!, reason: "SIM arrived" });
    expect(done).toMatchObject({ status: "active" });
    expect(done.order).toMatchObject({ type: "new_line", state: "completed" });
  });

  it("bad input answers at its field and adds nothing", async () => {
    const before = await lineCount();
    const msisdn = await freeNumber();
    const pre = planOf("prepaid");
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...esimLine(msisdn, "00000000-0000-4000-8000-000000000000") }, 400, "planId"],
      [{ ...esimLine(msisdn, planOf("postpaid").id) }, 422, "planId"],
      [{ planId: pre.id, number: {}, sim: { simType: "esim" } }, 400, "number.msisdn"],
      [{ planId: pre.id, number: { msisdn: "202555" }, sim: { simType: "esim" } }, 400, "number.msisdn"],
      [{ planId: pre.id, number: { msisdn }, sim: { simType: "physical" } }, 400, "sim.address"],
      [{ planId: pre.id, number: { msisdn }, sim: { simType: "pigeon" } }, 400, "sim.simType"],
      [{ planId: pre.id, number: { msisdn: "+12025559999" }, sim: { simType: "esim" } }, 409, "number.msisdn"],
      [{ planId: pre.id, number: { msisdn: "+12025550103" }, sim: { simType: "esim" } }, 409, "number.msisdn"],
      [
        {
          planId: pre.id,
          number: { portIn: { msisdn: "555", carrierAccount: "A1", transferPin: "1234", zip: "20001" } },
          sim: { simType: "esim" },
        },
        400,
        "number.portIn.msisdn",
      ],
      [
        {
          planId: pre.id,
          number: { portIn: { msisdn: "+14155550123", carrierAccount: "A1", transferPin: "!", zip: "2000" } },
          sim: { simType: "esim" },
        },
        400,
        "number.portIn.transferPin",
      ],
      [
        {
          planId: pre.id,
          number: { portIn: { msisdn: "+12025550103", carrierAccount: "A1", transferPin: "1234", zip: "20001" } },
          sim: { simType: "esim" },
        },
        409,
        "number.portIn.msisdn",
      ],
    ];
    for (const [body, status, field] of cases)
      expectProblem(await act("accounts", alexPrepaid.id, "add-line", ALEX, body), status, field);
    // Held by someone else for 15 minutes: 409.
    expect(
      (
        await backend.send("POST", `/api/v1/number-inventory/${encodeURIComponent(msisdn)}/actions/reserve`, {
          as: SAM,
        })
      ).statusCode,
    ).toBe(200);
    expectProblem(
      await act("accounts", alexPrepaid.id, "add-line", ALEX, esimLine(msisdn, pre.id)),
      409,
      "number.msisdn",
    );
    expectProblem(
      await act("accounts", alexPrepaid.id, "add-line", ALEX, esimLine(msisdn, pre.id), { preview: true }),
      409,
      "number.msisdn",
    );
    expect(await lineCount()).toBe(before);
  });

  it("access: 401 without a token, 404 for another subscriber's or another operator's account, agents verified and with a reason", async () => {
    const before = await lineCount();
    const msisdn = await freeNumber("301");
    const body = esimLine(msisdn, planOf(sam.type).id);
    expectProblem(await backend.send("POST", `/api/v1/accounts/${sam.id}/actions/add-line`, { body }), 401);
    expectProblem(await act("accounts", sam.id, "add-line", ALEX, body), 404);
    expectProblem(await act("accounts", tmoAccountId, "add-line", ALEX, body), 404);
    expectProblem(await act("accounts", sam.id, "add-line", TAYLOR, body, { operator: "TMO" }), 404);
    const unverified = expectProblem(
      await act("accounts", sam.id, "add-line", AGENT, { ...body, reason: "asked" }),
      403,
    );
    expect(unverified.type).toBe(PROBLEM_TYPES.callerNotVerified);
    expect(await lineCount()).toBe(before);

    await verifyDemoCallers(backend);
    expectProblem(await act("accounts", sam.id, "add-line", AGENT, body), 400, "reason");
    // Sam's prepaid balance is empty: an eSIM's first charge is refused with the shortfall, and nothing is added.
    const short = expectProblem(await act("accounts", sam.id, "add-line", AGENT, { ...body, reason: "asked" }), 422);
    expect(short.type).toBe("/problems/insufficient-balance");
    expect(await lineCount()).toBe(before);
    expect(await stock(msisdn)).toMatchObject({ status: "free" });
    // A SIM by post is charged when activated: the agent adds it for him.
    const answer = await ok("accounts", sam.id, "add-line", AGENT, {
      ...body,
      sim: { simType: "physical", address: ADDRESS },
      reason: "Sam asked by phone for a second line",
    });
    expect(answer.result).toMatchObject({ msisdn, status: "pending" });
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "accounts.add-line"), eq(auditEvents.targetId, sam.id)));
    expect(audit).toMatchObject({ actorRole: "agent", reason: "Sam asked by phone for a second line" });
  });

  it("a number brought in: the line works at once on a temporary number of the same area code; a port_in order keeps the PIN sealed", async () => {
    const portIn = { msisdn: "+12025557777", carrierAccount: "ACC-991", transferPin: "4321", zip: "20001" };
    const quote = await preview("accounts", alexPrepaid.id, "add-line", ALEX, {
      planId: planOf("prepaid").id,
      number: { portIn },
      sim: { simType: "esim" },
    });
    expect(quote.summary).toBe("resources.accounts.preview.addLinePortIn");
    const answer = await ok("accounts", alexPrepaid.id, "add-line", ALEX, {
      planId: planOf("prepaid").id,
      number: { portIn },
      sim: { simType: "esim" },
    });
    const temporary = String(answer.result!.msisdn);
    expect(temporary).toMatch(/^\+1202555\d{4}$/);
    expect(answer.result).toMatchObject({ status: "active" });
    expect(answer.order).toMatchObject({ type: "port_in", state: "in_progress" });
    const [order] = await backend.database.db.select().from(orders).where(eq(orders.id, answer.order!.id));
    expect(order!.lineId).toBe(answer.result!.lineId);
    const details = order!.details as { portIn: Record<string, string>; temporaryMsisdn: string };
    expect(details).toMatchObject({
      temporaryMsisdn: temporary,
      portIn: { msisdn: portIn.msisdn, carrierAccount: "ACC-991", zip: "20001" },
    });
    expect(withoutUuids(order!.details)).not.toContain("4321");
    // A retry (add-line takes no Idempotency-Key: its activation code is shown once) adds no second line.
    expectProblem(
      await act("accounts", alexPrepaid.id, "add-line", ALEX, {
        planId: planOf("prepaid").id,
        number: { portIn },
        sim: { simType: "esim" },
      }),
      409,
      "number.portIn.msisdn",
    );
    expect(secrets.open(details.portIn.transferPinCipher!)).toBe("4321");
  });
});

describe("the line actions refuse alike", () => {
  it("401 without a token, 404 for another subscriber's or another operator's line, 400 for a malformed id; nothing changes", async () => {
    const [samLine] = (await backend.get("/api/v1/lines", { as: SAM })).json<{ data: Line[] }>().data;
    const [tmoLine] = (await backend.get("/api/v1/lines", { as: TAYLOR, operator: "TMO" })).json<{ data: Line[] }>()
      .data;
    const bodies: Record<string, Record<string, unknown>> = {
      "activate-sim": { iccid: "8901410999999999983" },
      "change-number": { msisdn: await freeNumber("202", 5) },
      cancel: { when: "now" },
    };
    for (const [action, body] of Object.entries(bodies)) {
      expectProblem(await backend.send("POST", `/api/v1/lines/${samLine!.id}/actions/${action}`, { body }), 401);
      expectProblem(await act("lines", samLine!.id, action, ALEX, body), 404);
      expectProblem(await act("lines", tmoLine!.id, action, ALEX, body), 404);
      expectProblem(await act("lines", samLine!.id, action, TAYLOR, body, { operator: "TMO" }), 404);
      expectProblem(await act("lines", "not-a-uuid", action, SAM, body), 400, "id");
    }
    // Not pending: activate-sim is refused at the state.
    expectProblem(await act("lines", samLine!.id, "activate-sim", SAM, bodies["activate-sim"]!), 409, "status");
    expect(await lineRow(samLine!.id)).toMatchObject({ status: samLine!.status, msisdn: samLine!.msisdn });
  });
});

describe("change number", () => {
  it("moves the line to a number from the inventory; the old one rests in quarantine; refusals at msisdn", async () => {
    const [line] = (await backend.get("/api/v1/lines?sort=msisdn", { as: SAM })).json<{ data: Line[] }>().data;
    const old = line!.msisdn;
    const to = await freeNumber("202", 3);
    expectProblem(await act("lines", line!.id, "change-number", SAM, { msisdn: "555" }), 400, "msisdn");
    expectProblem(await act("lines", line!.id, "change-number", SAM, { msisdn: old }), 409, "msisdn");
    expectProblem(await act("lines", line!.id, "change-number", ALEX, { msisdn: to }), 404);
    expectProblem(await act("lines", line!.id, "change-number", TAYLOR, { msisdn: to }, { operator: "TMO" }), 404);
    // Held by someone else: 409; held by Sam: his to take.
    await backend.send("POST", `/api/v1/number-inventory/${encodeURIComponent(to)}/actions/reserve`, { as: ALEX });
    expectProblem(await act("lines", line!.id, "change-number", SAM, { msisdn: to }), 409, "msisdn");
    await backend.database.db
      .update(numberInventory)
      .set({ reservedBy: "demo-sam" })
      .where(eq(numberInventory.msisdn, to));

    const quote = await preview("lines", line!.id, "change-number", SAM, { msisdn: to });
    expect(quote.summary).toBe("resources.lines.preview.changeNumber");
    const answer = await ok("lines", line!.id, "change-number", SAM, { msisdn: to });
    expect(answer).toMatchObject({ msisdn: to });
    expect(answer.order).toMatchObject({ type: "change_number", state: "completed" });
    expect(await stock(to)).toMatchObject({ status: "assigned", lineId: line!.id });
    const rest = (await stock(old))!;
    expect(rest.status).toBe("quarantined");
    expect(Math.round((rest.quarantinedUntil!.getTime() - Date.now()) / 86_400_000)).toBe(90);
    const [notice] = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-sam"), eq(notifications.kind, "line.number_changed")));
    expect(notice!.params).toMatchObject({ msisdn: to, oldMsisdn: old });
    // The agent (verified above) changes it back? Not to a quarantined number.
    expectProblem(
      await act("lines", line!.id, "change-number", AGENT, { msisdn: old, reason: "asked" }),
      409,
      "msisdn",
    );
  });
});

describe("cancel a line", () => {
  it("now: preview in words, then terminated, number in quarantine, SIM released, add-ons ended; usage and orders stay readable", async () => {
    const added = await ok(
      "accounts",
      alexPrepaid.id,
      "add-line",
      ALEX,
      esimLine(await freeNumber("301"), planOf("prepaid").id),
    );
    const lineId = String(added.result!.lineId);
    const { msisdn, iccid } = await lineRow(lineId);
    expectProblem(await act("lines", lineId, "cancel", ALEX, { when: "tomorrow" }), 400, "when");
    expectProblem(await act("lines", lineId, "cancel", SAM, { when: "now" }), 404);
    expectProblem(await act("lines", lineId, "cancel", TAYLOR, { when: "now" }, { operator: "TMO" }), 404);

    const quote = await preview("lines", lineId, "cancel", ALEX, { when: "now" });
    expect(quote.summary).toBe("resources.lines.preview.cancelNow");
    const labels = quote.lines.map((l) => l.label);
    expect(labels).toContain("resources.lines.preview.portOutFirst");
    expect(labels).toContain("resources.lines.preview.noAddOns");
    expect(labels.some((l) => /finalCredit|nothingMoreForPlan/.test(l))).toBe(true);

    const answer = await ok("lines", lineId, "cancel", ALEX, { when: "now" });
    expect(answer).toMatchObject({ status: "terminated" });
    expect(answer.order).toMatchObject({ type: "terminate", state: "completed" });
    expect(await stock(msisdn)).toMatchObject({ status: "quarantined" });
    expect((await lineRow(lineId)).terminatedAt).not.toBeNull();
    // Readable after the end: the line, its orders.
    expect((await backend.get(`/api/v1/lines/${lineId}`, { as: ALEX })).statusCode).toBe(200);
    const own = (await backend.get(`/api/v1/orders?filter[lineId]=${lineId}`, { as: ALEX })).json<{ total: number }>();
    expect(own.total).toBeGreaterThanOrEqual(2);
    expectProblem(await act("lines", lineId, "cancel", ALEX, { when: "now" }), 409, "status");

    // Its SIM is released: another line may be activated with it.
    const pending = await ok("accounts", alexPrepaid.id, "add-line", ALEX, {
      planId: planOf("prepaid").id,
      number: { msisdn: await freeNumber("301") },
      sim: { simType: "physical", address: ADDRESS },
    });
    await ok("lines", String(pending.result!.lineId), "activate-sim", ALEX, { iccid: iccid! });
  });

  it("at cycle end: a scheduled order; the line works until the job ends it; the last line of an account with an unpaid bill can go, the bill stays due", async () => {
    // Alex's postpaid account gets a bill, unpaid.
    await closeCycles(backend.database.db, { operatorCode: "ATT", accountIds: [alexPostpaid.id] });
    const due = await backend.database.db.select().from(invoices).where(eq(invoices.accountId, alexPostpaid.id));
    const unpaid = due.filter((b) => b.status === "issued" || b.status === "overdue");
    const live = (await backend.get(`/api/v1/lines?filter[accountId]=${alexPostpaid.id}`, { as: ALEX }))
      .json<{ data: Line[] }>()
      .data.filter((l) => l.status !== "terminated");
    for (const line of live.slice(1)) await ok("lines", line.id, "cancel", ALEX, { when: "now" });
    const last = live[0]!;

    const quote = await preview("lines", last.id, "cancel", AGENT, { when: "cycle-end", reason: "asked" });
    expect(quote.summary).toBe("resources.lines.preview.cancelAtCycleEnd");
    if (unpaid.length) expect(quote.lines.map((l) => l.label)).toContain("resources.lines.preview.billStaysDue");
    expectProblem(await act("lines", last.id, "cancel", AGENT, { when: "cycle-end" }), 400, "reason");
    const answer = await ok("lines", last.id, "cancel", AGENT, { when: "cycle-end", reason: "Alex asked by phone" });
    expect(answer).toMatchObject({ status: "active" });
    expect(answer.order).toMatchObject({ type: "terminate", state: "acknowledged" });
    const [order] = await backend.database.db.select().from(orders).where(eq(orders.id, answer.order!.id));
    expect(order!.scheduledFor!.getTime()).toBeGreaterThan(Date.now());
    expectProblem(await act("lines", last.id, "cancel", ALEX, { when: "now" }), 409, "cancelsOn");

    expect(await runDueCancellations(backend.database.db, { publish: () => Promise.resolve() })).toBe(0);
    const ran = await runDueCancellations(
      backend.database.db,
      { publish: () => Promise.resolve() },
      new Date(order!.scheduledFor!.getTime() + 1000),
    );
    expect(ran).toBe(1);
    expect(await lineRow(last.id)).toMatchObject({ status: "terminated" });
    const [completed] = await backend.database.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(completed!.state).toBe("completed");
    // The bill is still due.
    for (const bill of unpaid) {
      const [now] = await backend.database.db.select().from(invoices).where(eq(invoices.id, bill.id));
      expect(now!.status).toBe(bill.status);
    }
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "line.cancel_scheduled")));
    expect(notices.length).toBeGreaterThan(0);
  });
});
