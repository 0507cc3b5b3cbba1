import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "../../server/audit";
import { invoices, lines } from "../../server/db/schema";
import type { AuditEvent } from "../../src/resources/auditEvents";
import { ADMIN, AGENT } from "../support/fixtures";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { expectProblem } from "../support/problems";

// The audit trail names its people and records (issue 23, item 8), on the real database (TEST_DB):
// the actor as a staff member's name and email or a subscriber's account name, the target by its
// title (a line's number, a bill's number, a person's name), never across operators, never failing
// on a target id that is not a uuid.
const ACTION = "test23.";

let backend: TestBackend;
let samLineId: string;
let samMsisdn: string;
let billId: string;
let billNumber: string;
let tmoLineId: string;

async function trail(as = ADMIN): Promise<Record<string, AuditEvent>> {
  const res = await backend.get(`/api/v1/audit-events?filter[action][startswith]=${ACTION}&pageSize=50`, { as });
  expect(res.statusCode, res.body).toBe(200);
  const { data } = res.json<{ data: AuditEvent[] }>();
  return Object.fromEntries(data.map((e) => [e.action.slice(ACTION.length), e]));
}

beforeAll(async () => {
  backend = await startTestBackend();
  const { db } = backend.database;
  const [sam] = await db
    .select()
    .from(lines)
    .where(and(eq(lines.operatorCode, "ATT"), eq(lines.msisdn, "+12025550103")));
  [samLineId, samMsisdn] = [sam!.id, sam!.msisdn];
  const [bill] = await db.select().from(invoices).where(eq(invoices.operatorCode, "ATT")).limit(1);
  [billId, billNumber] = [bill!.id, bill!.number];
  const [tmo] = await db.select().from(lines).where(eq(lines.operatorCode, "TMO")).limit(1);
  tmoLineId = tmo!.id;
  const row = { operator: "ATT", reason: null, requestId: null, before: null, after: null };
  await recordAudit(db, {
    ...row,
    actorUid: "demo-admin",
    actorRole: "admin",
    action: `${ACTION}staffOnLine`,
    targetType: "lines",
    targetId: samLineId,
  });
  await recordAudit(db, {
    ...row,
    actorUid: "demo-alex",
    actorRole: "subscriber",
    action: `${ACTION}subscriberOnBill`,
    targetType: "invoices",
    targetId: billId,
  });
  await recordAudit(db, {
    ...row,
    actorUid: null,
    actorRole: "system",
    action: `${ACTION}systemOnUser`,
    targetType: "user",
    targetId: "demo-sam",
  });
  await recordAudit(db, {
    ...row,
    actorUid: "demo-admin",
    actorRole: "admin",
    action: `${ACTION}onStaff`,
    targetType: "staff_member",
    targetId: "demo-agent",
  });
  // Another operator's line, a target id that is no uuid, a type without a title, a person who is gone.
  await recordAudit(db, {
    ...row,
    actorUid: "tmo-admin",
    actorRole: "admin",
    action: `${ACTION}otherOperator`,
    targetType: "lines",
    targetId: tmoLineId,
  });
  await recordAudit(db, {
    ...row,
    actorUid: "gone-uid",
    actorRole: "agent",
    action: `${ACTION}notUuid`,
    targetType: "lines",
    targetId: "row 3",
  });
  await recordAudit(db, {
    ...row,
    actorUid: "demo-agent",
    actorRole: "agent",
    action: `${ACTION}untitled`,
    targetType: "security_policy",
    targetId: null,
  });
});

afterAll(async () => {
  await backend?.close();
});

describe("GET /audit-events names people and records", () => {
  it("the actor: a staff member by display name and email, a subscriber by account name, the system by nobody", async () => {
    const events = await trail();
    expect(events.staffOnLine).toMatchObject({
      actorUid: "demo-admin",
      actorName: "Morgan Admin",
      actorEmail: "admin@att.example",
    });
    expect(events.subscriberOnBill).toMatchObject({
      actorUid: "demo-alex",
      actorName: "Alex Rivera",
      actorEmail: "alex@example.com",
    });
    expect(events.systemOnUser).toMatchObject({ actorUid: null, actorName: null, actorEmail: null });
  });

  it("the target by its title: a line's number, a bill's number, a person's or a staff member's name", async () => {
    const events = await trail();
    expect(events.staffOnLine!.targetTitle).toBe(samMsisdn);
    expect(events.subscriberOnBill!.targetTitle).toBe(billNumber);
    expect(events.systemOnUser!.targetTitle).toBe("Sam Chen");
    expect(events.onStaff!.targetTitle).toBe("Casey Agent");
  });

  it("names nothing of another operator, nor what cannot be found, and still answers every row", async () => {
    const events = await trail();
    expect(events.otherOperator).toMatchObject({ targetId: tmoLineId, targetTitle: null, actorName: null });
    expect(events.notUuid).toMatchObject({ targetId: "row 3", targetTitle: null, actorName: null });
    expect(events.untitled).toMatchObject({ targetTitle: null, actorName: "Casey Agent" });
    const one = await backend.get(`/api/v1/audit-events/${events.staffOnLine!.id}`, { as: ADMIN });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ actorName: "Morgan Admin", targetTitle: samMsisdn });
  });

  it("is the admins' (issue 27): an agent gets 403 on the list and on one event", async () => {
    const events = await trail();
    expectProblem(await backend.get("/api/v1/audit-events", { as: AGENT }), 403);
    expectProblem(await backend.get(`/api/v1/audit-events/${events.staffOnLine!.id}`, { as: AGENT }), 403);
  });
});
