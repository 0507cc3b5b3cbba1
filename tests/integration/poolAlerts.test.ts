import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, lines, notificationPreferences, notifications, outboxMessages } from "../../server/db/schema";
import { parseServiceKeys } from "../../server/auth/serviceKeys";
import type { UsageRecordInput } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { joinAccount, newSubscriber } from "../support/accountPeople";
import { createPoolPlan } from "../support/poolPlan";
import { ALEX } from "../support/fixtures";

// Usage alerts on a shared pool (issue 28): the 80 % and 100 % data alerts compare the account's
// pooled use with the pool's allowance and tell the holder and the managers once per threshold and
// cycle; no line is measured against the whole pool. A line that reaches its own monthly limit tells
// the line's member (the holder when it has none) once per cycle; a used-up pool tells each line's
// member that their line stopped. Replayed batches tell nobody twice. On the real database (TEST_DB).
const KEY = "att-pool-alerts-key";
const ALEX_POSTPAID = "+12025550102";
const KID_A = "+12025550191";
const KID_B = "+12025550192";
const FAMILY = [ALEX_POSTPAID, KID_A, KID_B];
const POOL_MB = 100;

let backend: TestBackend;
let accountId: string;
let accountEmail: string;
let accountPhone: string | null;
const lineId: Record<string, string> = {};
let member: { uid: string; email: string };
let manager: { uid: string; email: string };

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const data = (msisdn: string, mb: number): UsageRecordInput => ({
  id: `pool-alert-${randomUUID()}`,
  msisdn,
  type: "data",
  startedAt: minutesAgo(5),
  quantity: mb,
});
async function ingest(records: UsageRecordInput[]) {
  const res = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { "content-type": "application/json", "x-operator": "ATT", authorization: `ApiKey ${KEY}` },
    payload: { records },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ counted: number }>();
}
async function setCap(msisdn: string, dataMb: number | null) {
  const res = await backend.send("POST", `/api/v1/lines/${lineId[msisdn]}/actions/set-cap`, {
    as: ALEX,
    body: { dataMb },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Every usage notice of the family's lines and pool, by recipient: `kind threshold|line reason`. */
async function told(): Promise<Record<string, string[]>> {
  const rows = await backend.database.db
    .select()
    .from(notifications)
    .where(
      and(
        inArray(notifications.recipientUid, ["demo-alex", member.uid, manager.uid]),
        inArray(notifications.kind, ["usage.threshold", "usage.capped", "usage.pool_threshold"]),
      ),
    )
    .orderBy(notifications.createdAt, notifications.id);
  const byWhom: Record<string, string[]> = { holder: [], member: [], manager: [] };
  const who = (uid: string) => (uid === member.uid ? "member" : uid === manager.uid ? "manager" : "holder");
  for (const row of rows) {
    const p = row.params as Record<string, string | number>;
    if (row.kind === "usage.pool_threshold") byWhom[who(row.recipientUid)]!.push(`pool ${p.threshold}`);
    else if (FAMILY.includes(String(p.msisdn)))
      byWhom[who(row.recipientUid)]!.push(
        row.kind === "usage.capped" ? `stopped ${p.msisdn} ${p.capReason}` : `line ${p.msisdn} ${p.threshold}`,
      );
  }
  return byWhom;
}

/** A new person on the family account as `role`. */
async function join(role: "member" | "manager", lineIds: string[]) {
  const person = await newSubscriber(backend, `pool-${role}`);
  await joinAccount(backend, accountId, person, role, lineIds);
  return { uid: person.uid, email: person.email };
}

beforeAll(async () => {
  backend = await startTestBackend({ ingestApiKeys: parseServiceKeys(KEY, "ATT") });
  const db = backend.database.db;
  const poolPlanId = (
    await createPoolPlan(backend, { code: "POOL_ALERTS_100MB", name: "Family Alerts 100 MB", dataMb: POOL_MB })
  ).id;
  const [main] = await db
    .select({ id: lines.id, accountId: lines.accountId, planId: lines.planId, cycleDay: lines.cycleDay })
    .from(lines)
    .where(eq(lines.msisdn, ALEX_POSTPAID));
  accountId = main!.accountId;
  lineId[ALEX_POSTPAID] = main!.id;
  const [account] = await db
    .select({ email: accounts.email, phone: accounts.phone })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  accountEmail = account!.email!;
  accountPhone = account!.phone;
  for (const [n, msisdn] of [KID_A, KID_B].entries()) {
    const [row] = await db
      .insert(lines)
      .values({
        operatorCode: "ATT",
        accountId,
        msisdn,
        iccid: `89014109990000001${n + 10}`,
        simType: "esim",
        planId: main!.planId,
        status: "active",
        cycleDay: main!.cycleDay,
      })
      .returning({ id: lines.id });
    lineId[msisdn] = row!.id;
  }
  for (const msisdn of FAMILY) {
    const res = await backend.send("POST", `/api/v1/lines/${lineId[msisdn]}/actions/change-plan`, {
      as: ALEX,
      body: { planId: poolPlanId, effective: "now" },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  member = await join("member", [lineId[KID_A]!]);
  manager = await join("manager", []);
  // Everyone asked for email at 80 % and 100 %; the holder also for SMS at 100 %.
  await db.insert(notificationPreferences).values(
    [
      { uid: "demo-alex", usageLimitBySms: true },
      { uid: member.uid, usageLimitBySms: true },
      { uid: manager.uid, usageLimitBySms: true },
    ].map((p) => ({ ...p, operatorCode: "ATT", usageAlertsByEmail: true, usageLimitByEmail: true })),
  );
});

afterAll(async () => {
  await backend?.close();
});

describe("usage alerts on a shared pool", () => {
  /** The usage emails and SMS queued for a recipient (not the invitation that brought them). */
  const outbox = async (recipient: string) =>
    (
      await backend.database.db
        .select({ channel: outboxMessages.channel, kind: outboxMessages.kind, params: outboxMessages.params })
        .from(outboxMessages)
        .where(eq(outboxMessages.recipient, recipient))
        .orderBy(outboxMessages.createdAt, outboxMessages.id)
    ).filter((m) => m.kind.startsWith("usage."));

  it("no line is measured against the pool; a member's line stopping at its limit tells the member, once a cycle", async () => {
    // 30 + 30 of 100 MB: nobody told.
    await ingest([data(ALEX_POSTPAID, 30), data(KID_A, 30)]);
    expect(await told()).toEqual({ holder: [], member: [], manager: [] });

    // KID_A's limit: 35 MB. 10 more: 5 up to it, 5 barred. Its member is told, not the holder.
    await setCap(KID_A, 35);
    const batch = [data(KID_A, 10)];
    await ingest(batch);
    const stopped = { holder: [], member: [`stopped ${KID_A} line_cap`], manager: [] };
    expect(await told()).toEqual(stopped);
    expect((await outbox(member.email)).map((m) => [m.channel, m.kind])).toEqual([["email", "usage.capped"]]);
    expect((await outbox(KID_A)).map((m) => [m.channel, m.kind])).toEqual([["sms", "usage.capped"]]);

    // The same batch again counts nothing and tells nobody.
    expect((await ingest(batch)).counted).toBe(0);
    expect(await told()).toEqual(stopped);

    // The holder sets the limit to what the line used (it stops at once), then raises it and the
    // line reaches it again: the member was told this cycle already.
    await setCap(KID_A, 40);
    await setCap(KID_A, 45);
    await ingest([data(KID_A, 10)]);
    expect(await told()).toEqual(stopped);
  });

  it("the pool crossing 80 % tells the holder and the managers once; a limit reached on a line without a member tells the holder", async () => {
    // Pool so far: 30 + 35 + 5 = 70. KID_B (nobody's line but the holder's) has a 20 MB limit and uses
    // 25: 20 drawn (the pool is at 90 %), 5 barred.
    await setCap(KID_B, 20);
    const batch = [data(KID_B, 25)];
    await ingest(batch);
    const after80 = {
      holder: [`stopped ${KID_B} line_cap`, "pool 80"],
      member: [`stopped ${KID_A} line_cap`],
      manager: ["pool 80"],
    };
    expect(sortEach(await told())).toEqual(sortEach(after80));
    const managerMail = await outbox(manager.email);
    expect(managerMail).toEqual([
      {
        channel: "email",
        kind: "usage.pool_threshold",
        params: { usageType: "data", threshold: 80, planName: "Family Alerts 100 MB" },
      },
    ]);
    expect((await outbox(accountEmail)).map((m) => m.kind).sort()).toEqual(["usage.capped", "usage.pool_threshold"]);

    expect((await ingest(batch)).counted).toBe(0);
    expect(sortEach(await told())).toEqual(sortEach(after80));
  });

  it("the pool used up tells the holder and the managers once (100 %), and each stopped line's member; nothing twice", async () => {
    // KID_A's limit removed first: it draws from the pool again until the pool runs out.
    await setCap(KID_A, null);
    const batch = [data(ALEX_POSTPAID, 15)];
    await ingest(batch); // 10 MB left: the pool is used up, every line stops
    const after100 = {
      holder: [`stopped ${KID_B} line_cap`, "pool 80", "pool 100"],
      member: [`stopped ${KID_A} line_cap`, `stopped ${KID_A} pool`],
      manager: ["pool 80", "pool 100"],
    };
    expect(sortEach(await told())).toEqual(sortEach(after100));
    // The 100 % limit by email to both, and by SMS to the holder's phone (a manager's is not known).
    expect((await outbox(manager.email)).map((m) => m.params.threshold)).toEqual([80, 100]);
    if (accountPhone)
      expect((await outbox(accountPhone)).filter((m) => m.kind === "usage.pool_threshold")).toHaveLength(1);

    expect((await ingest(batch)).counted).toBe(0);
    // Past the pool, barred: nothing new to tell, though KID_B's own counter is now past 80 % of the
    // pool's size (a line measured against the whole pool would have been told so).
    await ingest([data(KID_B, 60), data(ALEX_POSTPAID, 1)]);
    expect(sortEach(await told())).toEqual(sortEach(after100));
  });
});

const sortEach = (byWhom: Record<string, string[]>) =>
  Object.fromEntries(Object.entries(byWhom).map(([who, list]) => [who, [...list].sort()]));
