import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addOnPurchases,
  addOns,
  auditEvents,
  ledgerEntries,
  lines,
  notifications,
  orders,
} from "../../server/db/schema";
import { rowsOf } from "../../server/db/rowsOf";
import { readAccountMoney } from "../../server/domain/money/accountMoney";
import { postLedgerEntry } from "../../server/domain/money/ledger";
import { ADD_ON_EXPIRY_JOB, runAddOnExpiries } from "../../server/domain/addOns/expiries";
import { domainJobs } from "../../server/domain/jobs";
import type { AddOn, LineAddOn } from "../../src/resources/addOns";
import type { Meter } from "../../src/resources/usage";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";

// Add-ons (issue 10): the add-ons catalog, lines/{id}/actions/buy-add-on through the ledger with its
// order, the meters it raises, stop-add-on-renewal, and the expiry/renewal job; on TEST_DB.
let backend: TestBackend;
const addOnId: Record<string, string> = {};
const lineId: Record<string, string> = {};
const accountId: Record<string, string> = {};

interface Problem {
  status: number;
  detail: string;
  errors?: { path: string; message: string }[];
  shortfall?: { amount: number; currency: string };
}

const ALEX_PREPAID = "+12025550101";
const ALEX_POSTPAID = "+12025550102";
const SAM_LINE = "+12025550103";

async function act(
  line: string,
  action: string,
  body: Record<string, unknown>,
  options: { as?: string; preview?: boolean; operator?: string; key?: string } = {},
) {
  return backend.send("POST", `/api/v1/lines/${lineId[line]}/actions/${action}${options.preview ? "/preview" : ""}`, {
    token: await signInWithPassword(options.as ?? ALEX),
    operator: options.operator,
    body,
    headers: options.key ? { "idempotency-key": options.key } : {},
  });
}
const buy = (line: string, body: Record<string, unknown>, options?: Parameters<typeof act>[3]) =>
  act(line, "buy-add-on", body, options);

const balanceOf = async (line: string) =>
  (await readAccountMoney(backend.database.db, [accountId[line]!])).get(accountId[line]!)!.balance?.amount ?? null;
const dataMeter = async (line: string, as = ALEX) =>
  (await backend.get(`/api/v1/lines/${lineId[line]}/meters`, { as })).json<Meter[]>().find((m) => m.type === "data")!;
const addOnsOf = async (line: string, as = ALEX) =>
  (await backend.get(`/api/v1/lines/${lineId[line]}/add-ons`, { as })).json<LineAddOn[]>();
const ordersOf = (line: string) =>
  backend.database.db
    .select()
    .from(orders)
    .where(and(eq(orders.lineId, lineId[line]!), eq(orders.type, "add_on")));

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const row of await backend.database.db.select().from(addOns))
    if (row.operatorCode === "ATT") addOnId[row.code] = row.id;
  for (const msisdn of [ALEX_PREPAID, ALEX_POSTPAID, SAM_LINE, "+13105550199"]) {
    const [row] = await backend.database.db
      .select({ id: lines.id, accountId: lines.accountId })
      .from(lines)
      .where(eq(lines.msisdn, msisdn));
    lineId[msisdn] = row!.id;
    accountId[msisdn] = row!.accountId;
  }
});

afterAll(async () => {
  await backend?.close();
});

describe("the add-ons catalog", () => {
  it("is seeded for ATT; subscribers see only active add-ons, staff all; another operator sees none of them", async () => {
    expect(Object.keys(addOnId)).toEqual(expect.arrayContaining(["DATA_1GB", "ROAM_EU_7D", "ROAM_NA_10D"]));
    const alex = (await backend.get("/api/v1/add-ons?pageSize=50", { as: ALEX })).json<{ data: AddOn[] }>();
    expect(alex.data.length).toBeGreaterThan(0);
    expect(alex.data.every((a) => a.status === "active")).toBe(true);
    expect(alex.data.find((a) => a.code === "ROAM_EU_7D")).toMatchObject({
      kind: "roaming",
      roamingZone: "europe",
      price: { amount: 3500, currency: "USD" },
      validityDays: 7,
    });
    expect((await backend.get(`/api/v1/add-ons/${addOnId.ROAM_WORLD_OLD}`, { as: ALEX })).statusCode).toBe(404);
    const agent = (await backend.get("/api/v1/add-ons?pageSize=50", { as: AGENT })).json<{ data: AddOn[] }>();
    expect(agent.data.map((a) => a.status)).toEqual(expect.arrayContaining(["active", "retired", "draft"]));
    const other = (await backend.get("/api/v1/add-ons?pageSize=50", { as: TAYLOR, operator: "TMO" })).json<{
      data: AddOn[];
    }>();
    expect(other.data).toEqual([]);
    expect(
      (await backend.get(`/api/v1/add-ons/${addOnId.DATA_1GB}`, { as: TMO_ADMIN, operator: "TMO" })).statusCode,
    ).toBe(404);
    expect((await backend.send("GET", "/api/v1/add-ons")).statusCode).toBe(401);
  });

  it("admins create (as a draft), put on sale and retire; others may not; bad input is 400 at the field and writes nothing", async () => {
    const body = {
      code: "ROAM_EU_30D",
      name: "Europe pass, 30 days",
      kind: "roaming",
      roamingZone: "europe",
      price: { amount: 7000, currency: "USD" },
      dataMb: 10240,
      validityDays: 30,
    };
    for (const as of [ALEX, AGENT])
      expect((await backend.send("POST", "/api/v1/add-ons", { as, body })).statusCode).toBe(403);
    expect((await backend.send("POST", "/api/v1/add-ons", { body })).statusCode).toBe(401);
    for (const [bad, path] of [
      [{ ...body, price: { amount: 7.5, currency: "USD" } }, "price.amount"],
      [{ ...body, validityDays: 0 }, "validityDays"],
      [{ ...body, kind: "voice" }, "kind"],
      [{ ...body, roamingZone: null }, "roamingZone"],
      [{ ...body, code: "lower" }, "code"],
    ] as const) {
      const res = await backend.send("POST", "/api/v1/add-ons", { as: ADMIN, body: bad });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
      expect(
        res
          .json<Problem>()
          .errors?.map((e) => e.path)
          .join(" "),
      ).toContain(path);
    }
    expect(await backend.database.db.select().from(addOns).where(eq(addOns.code, "ROAM_EU_30D"))).toEqual([]);

    const created = await backend.send("POST", "/api/v1/add-ons", { as: ADMIN, body });
    expect(created.statusCode, created.body).toBe(201);
    const addOn = created.json<AddOn>();
    expect(addOn.status).toBe("draft");
    expect((await backend.get(`/api/v1/add-ons/${addOn.id}`, { as: ALEX })).statusCode).toBe(404);
    expect((await backend.send("POST", "/api/v1/add-ons", { as: ADMIN, body })).statusCode).toBe(409);
    expect(
      (await backend.send("POST", `/api/v1/add-ons/${addOn.id}/actions/activate`, { as: AGENT, body: {} })).statusCode,
    ).toBe(403);
    const active = await backend.send("POST", `/api/v1/add-ons/${addOn.id}/actions/activate`, { as: ADMIN, body: {} });
    expect(active.statusCode, active.body).toBe(200);
    expect((await backend.get(`/api/v1/add-ons/${addOn.id}`, { as: ALEX })).statusCode).toBe(200);
    expect(
      (await backend.send("POST", `/api/v1/add-ons/${addOn.id}/actions/activate`, { as: ADMIN, body: {} })).statusCode,
    ).toBe(409);
    const retired = await backend.send("POST", `/api/v1/add-ons/${addOn.id}/actions/retire`, { as: ADMIN, body: {} });
    expect(retired.json<AddOn>().status).toBe("retired");
    const audit = await backend.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, addOn.id));
    expect(audit.length).toBe(3);
  });
});

describe("POST /lines/{id}/actions/buy-add-on", () => {
  it("previews the price and changes nothing", async () => {
    const res = await buy(ALEX_PREPAID, { addOnId: addOnId.ROAM_EU_7D, autoRenew: true }, { preview: true });
    expect(res.statusCode, res.body).toBe(200);
    const quote = res.json<{ total: { amount: number; currency: string }; lines: { label: string }[] }>();
    expect(quote.total).toEqual({ amount: 3500, currency: "USD" });
    expect(quote.lines.map((l) => l.label)).toContain("resources.lines.preview.autoRenews");
    expect(await ordersOf(ALEX_PREPAID)).toEqual([]);
  });

  it("who may: 401, 404 on another subscriber's line, 403/404 from another operator, staff only with a reason; bad input 400 at the field, nothing written", async () => {
    const url = `/api/v1/lines/${lineId[ALEX_PREPAID]}/actions/buy-add-on`;
    expect((await backend.send("POST", url, { body: { addOnId: addOnId.DATA_1GB } })).statusCode).toBe(401);
    expect((await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB }, { as: SAM })).statusCode).toBe(404);
    expect((await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB }, { as: TAYLOR })).statusCode).toBe(403);
    expect((await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB }, { as: TAYLOR, operator: "TMO" })).statusCode).toBe(
      404,
    );
    const noReason = await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB }, { as: AGENT });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<Problem>().errors?.[0]?.path).toBe("reason");
    for (const [body, path, status] of [
      [{ addOnId: "x" }, "addOnId", 400],
      [{}, "addOnId", 400],
      [{ addOnId: addOnId.DATA_1GB, autoRenew: "yes" }, "autoRenew", 400],
      [{ addOnId: randomUUID() }, "addOnId", 400],
      [{ addOnId: addOnId.DATA_20GB_DRAFT }, "addOnId", 400],
      [{ addOnId: addOnId.ROAM_WORLD_OLD }, "addOnId", 422],
    ] as const) {
      const res = await buy(ALEX_PREPAID, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(status);
      expect(res.json<Problem>().errors?.map((e) => e.path)).toContain(path);
    }
    // Another operator's add-on is no add-on here.
    const [tmo] = await backend.database.db
      .insert(addOns)
      .values({
        operatorCode: "TMO",
        code: "TMO_PASS",
        name: "Other pass",
        kind: "data",
        status: "active",
        priceAmount: 100,
        currency: "USD",
        dataMb: 100,
        validityDays: 1,
      })
      .returning({ id: addOns.id });
    expect((await buy(ALEX_PREPAID, { addOnId: tmo!.id })).statusCode).toBe(400);
    expect(await ordersOf(ALEX_PREPAID)).toEqual([]);
    expect(await backend.database.db.select().from(addOnPurchases)).toEqual([]);
  });

  it("prepaid: charges once (Idempotency-Key replays), places a completed order, adds the allowance to the data meter and lists it on the line", async () => {
    const before = await balanceOf(ALEX_PREPAID);
    const meterBefore = await dataMeter(ALEX_PREPAID);
    const key = randomUUID();
    const res = await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB, autoRenew: true }, { key });
    expect(res.statusCode, res.body).toBe(200);
    const { order } = res.json<{ order: { id: string; type: string; state: string } }>();
    expect(order).toMatchObject({ type: "add_on", state: "completed" });
    expect(await balanceOf(ALEX_PREPAID)).toBe(before! - 1000);
    const replay = await buy(ALEX_PREPAID, { addOnId: addOnId.DATA_1GB, autoRenew: true }, { key });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(await balanceOf(ALEX_PREPAID)).toBe(before! - 1000);

    const entries = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceId, order.id));
    expect(entries.map((e) => [e.kind, e.amount])).toEqual([["charge", 1000]]);
    const [row] = await backend.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row!.timeline.map((s) => s.state)).toEqual(["acknowledged", "in_progress", "completed"]);
    expect(row!.details).toMatchObject({ addOnId: addOnId.DATA_1GB, price: 1000, autoRenew: true });

    expect((await dataMeter(ALEX_PREPAID)).allowance).toBe(meterBefore.allowance! + 1024);
    const active = await addOnsOf(ALEX_PREPAID);
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({ addOnId: addOnId.DATA_1GB, dataMb: 1024, autoRenew: true });
    expect((await backend.get(`/api/v1/lines/${lineId[ALEX_PREPAID]}/add-ons`, { as: SAM })).statusCode).toBe(404);
    expect((await backend.send("GET", `/api/v1/lines/${lineId[ALEX_PREPAID]}/add-ons`)).statusCode).toBe(401);
    const notices = await backend.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.recipientUid, "demo-alex"), eq(notifications.kind, "add_on.purchased")));
    expect(notices).toHaveLength(1);
  });

  it("prepaid, balance short: 422 naming the shortfall, nothing written", async () => {
    const balance = (await balanceOf(SAM_LINE))!;
    if (balance > 0) {
      await backend.database.db.transaction((tx) =>
        postLedgerEntry(tx, {
          operatorCode: "ATT",
          accountId: accountId[SAM_LINE]!,
          kind: "charge",
          amount: balance,
          currency: "USD",
          reason: "test: spend it all",
          actorUid: null,
          actorRole: "system",
        }),
      );
    }
    const res = await buy(SAM_LINE, { addOnId: addOnId.ROAM_EU_7D }, { as: SAM });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<Problem>().shortfall).toEqual({ amount: 3500, currency: "USD" });
    expect(res.json<Problem>().detail).toMatch(/short by/);
    expect(await ordersOf(SAM_LINE)).toEqual([]);
    expect(await addOnsOf(SAM_LINE, SAM)).toEqual([]);
  });

  it("postpaid, by an agent on behalf: an unbilled charge, the reason on the order and in the audit trail", async () => {
    const res = await buy(
      ALEX_POSTPAID,
      { addOnId: addOnId.ROAM_NA_10D, autoRenew: false, reason: "travelling, asked by phone" },
      { as: AGENT },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { order } = res.json<{ order: { id: string } }>();
    const [row] = await backend.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row).toMatchObject({ requestedByRole: "agent", reason: "travelling, asked by phone" });
    const entries = await backend.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.referenceId, order.id));
    expect(entries.map((e) => [e.kind, e.amount, e.actorRole, e.balanceAfter])).toEqual([
      ["charge", 2000, "agent", null],
    ]);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.buy-add-on"), eq(auditEvents.targetId, lineId[ALEX_POSTPAID]!)));
    expect(audit.map((a) => a.reason)).toEqual(["travelling, asked by phone"]);
  });
});

describe("renewal and expiry", () => {
  it("stop-add-on-renewal: only the line's own purchase, 409 when already off; bad input 400", async () => {
    const [purchase] = await addOnsOf(ALEX_PREPAID);
    const url = `/api/v1/lines/${lineId[ALEX_PREPAID]}/actions/stop-add-on-renewal`;
    expect((await backend.send("POST", url, { body: { addOnPurchaseId: purchase!.id } })).statusCode).toBe(401);
    expect(
      (await act(ALEX_PREPAID, "stop-add-on-renewal", { addOnPurchaseId: purchase!.id }, { as: SAM })).statusCode,
    ).toBe(404);
    expect(
      (
        await act(
          ALEX_PREPAID,
          "stop-add-on-renewal",
          { addOnPurchaseId: purchase!.id },
          { as: TAYLOR, operator: "TMO" },
        )
      ).statusCode,
    ).toBe(404);
    const bad = await act(ALEX_PREPAID, "stop-add-on-renewal", { addOnPurchaseId: "nope" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Problem>().errors?.[0]?.path).toBe("addOnPurchaseId");
    const [postpaid] = await addOnsOf(ALEX_POSTPAID);
    const wrongLine = await act(ALEX_PREPAID, "stop-add-on-renewal", { addOnPurchaseId: postpaid!.id });
    expect(wrongLine.statusCode).toBe(400);
    expect((await act(ALEX_POSTPAID, "stop-add-on-renewal", { addOnPurchaseId: postpaid!.id })).statusCode).toBe(409);
    expect((await addOnsOf(ALEX_PREPAID))[0]!.autoRenew).toBe(true);
  });

  it("the job renews an auto-renewing add-on (charging again, once) and expires the rest; the meters follow", async () => {
    const [prepaid] = await addOnsOf(ALEX_PREPAID);
    const [postpaid] = await addOnsOf(ALEX_POSTPAID);
    const before = (await balanceOf(ALEX_PREPAID))!;
    const events = {
      published: [] as unknown[],
      publish: (e: unknown) => {
        events.published.push(e);
        return Promise.resolve();
      },
    };
    expect(await runAddOnExpiries(backend.database.db, events, new Date())).toBe(0);

    // The postpaid pass (no renewal) runs out first: it expires.
    const afterNa = new Date(Date.parse(postpaid!.expiresAt) + 1000);
    const afterData = new Date(Date.parse(prepaid!.expiresAt) + 1000);
    expect(
      await runAddOnExpiries(backend.database.db, events, new Date(Math.max(afterNa.getTime(), afterData.getTime()))),
    ).toBe(2);
    expect(
      await runAddOnExpiries(backend.database.db, events, new Date(Math.max(afterNa.getTime(), afterData.getTime()))),
    ).toBe(0);
    expect(await addOnsOf(ALEX_POSTPAID)).toEqual([]);
    const renewed = await addOnsOf(ALEX_PREPAID);
    expect(renewed).toHaveLength(1);
    expect(renewed[0]!.startsAt).toBe(prepaid!.expiresAt);
    expect(await balanceOf(ALEX_PREPAID)).toBe(before - 1000);
    const renewalOrders = (await ordersOf(ALEX_PREPAID)).filter((o) => o.details.renewalOf === prepaid!.id);
    expect(renewalOrders.map((o) => [o.state, o.requestedBy])).toEqual([["completed", "system"]]);
    const kinds = (
      await backend.database.db.select().from(notifications).where(eq(notifications.recipientUid, "demo-alex"))
    ).map((n) => n.kind);
    expect(kinds).toEqual(expect.arrayContaining(["add_on.renewed", "add_on.expired"]));
    expect(events.published).toEqual(
      expect.arrayContaining([expect.objectContaining({ resource: "meters", ids: [lineId[ALEX_POSTPAID]] })]),
    );
  });

  it("turned off, the add-on expires at its end instead of renewing; a short prepaid balance expires it too", async () => {
    const [current] = await addOnsOf(ALEX_PREPAID);
    const off = await act(ALEX_PREPAID, "stop-add-on-renewal", { addOnPurchaseId: current!.id });
    expect(off.statusCode, off.body).toBe(200);
    const before = await balanceOf(ALEX_PREPAID);
    const events = { publish: () => Promise.resolve() };
    expect(await runAddOnExpiries(backend.database.db, events, new Date(Date.parse(current!.expiresAt) + 1000))).toBe(
      1,
    );
    expect(await balanceOf(ALEX_PREPAID)).toBe(before);
    const [row] = await backend.database.db.select().from(addOnPurchases).where(eq(addOnPurchases.id, current!.id));
    expect(row!.status).toBe("expired");
    expect((await act(ALEX_PREPAID, "stop-add-on-renewal", { addOnPurchaseId: current!.id })).statusCode).toBe(409);
  });

  it("by pages: one account's add-ons renew in the order they ran out while its balance covers them, the rest expire, each once", async () => {
    const db = backend.database.db;
    const q = async <T>(text: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(text));
    const [account] = await q<{ id: string }>(sql`
      insert into accounts (operator_code, name, email, type, status)
      values ('ATT', 'Pages of add-ons', 'addon.pages@example.test', 'prepaid', 'active') returning id`);
    const [line] = await q<{ id: string }>(sql`
      insert into lines (operator_code, account_id, msisdn, iccid, sim_type, plan_id, status, cycle_day)
      select 'ATT', ${account!.id}, '+12025559771', '8901900000009977100', 'physical', id, 'active', 1
      from plans where operator_code = 'ATT' and kind = 'prepaid' and status = 'active' order by code limit 1 returning id`);
    const [addOn] = await q<{ id: string; price: number; mb: number }>(sql`
      select id, price_amount as price, data_mb as mb from add_ons
      where operator_code = 'ATT' and status = 'active' and price_amount > 0 order by code limit 1`);
    // Enough for two renewals and not three.
    await postLedgerEntry(db, {
      operatorCode: "ATT",
      accountId: account!.id,
      kind: "top_up",
      amount: addOn!.price * 2 + 1,
      currency: "USD",
      reason: "test",
      actorUid: null,
      actorRole: "admin",
    });
    const ranOut = [4, 3, 2, 1].map((h) => new Date(Date.now() - h * 3_600_000));
    const purchases: string[] = [];
    for (const [i, end] of ranOut.entries()) {
      const [order] = await q<{ id: string }>(sql`
        insert into orders (operator_code, account_id, line_id, type, state, requested_by, requested_by_role)
        values ('ATT', ${account!.id}, ${line!.id}, 'add_on', 'completed', 'demo-alex', 'subscriber') returning id`);
      const [purchase] = await q<{ id: string }>(sql`
        insert into add_on_purchases (operator_code, line_id, account_id, add_on_id, order_id, data_mb, auto_renew, starts_at, expires_at)
        values ('ATT', ${line!.id}, ${account!.id}, ${addOn!.id}, ${order!.id}, ${addOn!.mb}, true,
          ${new Date(end.getTime() - 86_400_000).toISOString()}::timestamptz, ${end.toISOString()}::timestamptz) returning id`);
      purchases[i] = purchase!.id;
    }
    const events = { publish: () => Promise.resolve() };
    // Pages of three: the fourth add-on is in a page of its own, after the balance ran short.
    expect(await runAddOnExpiries(db, events, new Date(), { operatorCode: "ATT", perPage: 3 })).toBeGreaterThanOrEqual(
      4,
    );
    const rows = await q<{ id: string; status: string; renewals: number }>(
      sql`select id, status, renewals from add_on_purchases where account_id = ${account!.id}`,
    );
    expect(purchases.map((id) => rows.find((r) => r.id === id)).map((r) => [r!.status, r!.renewals])).toEqual([
      ["active", 1],
      ["active", 1],
      ["expired", 0],
      ["expired", 0],
    ]);
    const [money] = await q<{ balance: number; charges: number }>(sql`
      select a.balance_amount as balance, (select count(*)::int from ledger_entries e where e.account_id = a.id and e.kind = 'charge') as charges
      from accounts a where a.id = ${account!.id}`);
    expect(money).toEqual({ balance: 1, charges: 2 });
    const [orders] = await q<{ n: number }>(
      sql`select count(*)::int as n from orders where account_id = ${account!.id} and details->>'renewalOf' is not null`,
    );
    expect(orders!.n).toBe(2);
    // Done: the next sweep finds nothing of theirs (the two renewed run out tomorrow).
    await runAddOnExpiries(db, events, new Date(), { operatorCode: "ATT", perPage: 3 });
    const [again] = await q<{ charges: number }>(
      sql`select count(*)::int as charges from ledger_entries where account_id = ${account!.id} and kind = 'charge'`,
    );
    expect(again!.charges).toBe(2);
  });

  it("the job runs every minute through the durable job queue", () => {
    expect(domainJobs({} as never).find((j) => j.name === ADD_ON_EXPIRY_JOB)?.cron).toBe("* * * * *");
  });
});
