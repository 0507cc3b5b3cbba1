import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMembers, accounts, invoices, lines } from "../../server/db/schema";
import { createEventBus, type EventBus } from "../../server/live/eventBus";
import type { ResourceEvent } from "../../src/resources/events";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { joinAccount, newSubscriber, type NewPerson } from "../support/accountPeople";
import { ALEX, SAM } from "../support/fixtures";
import { listenOn, openLiveStream, type LiveStream } from "../support/liveStream";

// Live events for the people on an account (issue 28): alex's member (one line of his postpaid
// account), his manager and another subscriber each follow the same resources over real HTTP; each
// hears only what their lists would show. Writes go through the API (set-cap publishes `lines` and
// `meters`); what no route of the test can cause (a bill changing) is published on the database's
// bus as another instance would. A `plans` event, which every subscriber hears, closes each step: the
// bus delivers in order, so anything a stream should not have heard would have come before it.
const FOLLOWED = "lines,meters,invoices,ledger-entries,plans";

let backend: TestBackend;
let base: string;
let bus: EventBus;
const streams: LiveStream[] = [];
const alex = { accountId: "", prepaidAccountId: "", lineId: "", otherLineId: "", prepaidLineId: "", invoiceId: "" };
let member: { uid: string; email: string; token: string; memberId: string };
let manager: { uid: string; email: string; token: string; memberId: string };

/** Invites the person as `role` on alex's postpaid account and has them accept. */
async function join(person: NewPerson, role: "member" | "manager", lineIds: string[]) {
  await joinAccount(backend, alex.accountId, person, role, lineIds);
  const [row] = await backend.database.db
    .select({ id: accountMembers.id })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, alex.accountId), eq(accountMembers.memberUid, person.uid)));
  return { ...person, memberId: row!.id };
}

async function follow(token: string): Promise<LiveStream> {
  const stream = await openLiveStream(base, FOLLOWED, { token });
  streams.push(stream);
  expect(stream.status).toBe(200);
  await expect.poll(() => stream.text()).toMatch(/following /);
  return stream;
}

/** alex (the holder) sets a line's monthly limit: the engine publishes `lines`, the handler `meters`. */
async function touchLine(lineId: string) {
  const res = await backend.send("POST", `/api/v1/lines/${lineId}/actions/set-cap`, {
    as: ALEX,
    body: { dataMb: 500_000 },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const publish = (event: Omit<ResourceEvent, "operator" | "at">) =>
  bus.publish({ ...event, operator: "ATT", at: new Date().toISOString() });

/** The step's closing event, heard by every subscriber. */
async function closeStep(): Promise<string> {
  const id = randomUUID();
  await publish({ resource: "plans", type: "updated", ids: [id] });
  return id;
}

/** The events of the stream up to the step's closing one, as `resource:id`, sorted (one write publishes both in any order). */
async function heardUntil(stream: LiveStream, closing: string): Promise<string[]> {
  const heard: string[] = [];
  for (;;) {
    const event = await stream.next();
    if (event.resource === "plans" && event.ids[0] === closing) return heard.sort();
    heard.push(...event.ids.map((id) => `${event.resource}:${id}`));
  }
}

beforeAll(async () => {
  backend = await startTestBackend();
  base = await listenOn(backend.app);
  // Another instance's bus on the same database: what it publishes reaches the app through LISTEN.
  bus = createEventBus(backend.database);
  await bus.ready;
  const db = backend.database.db;
  const [postpaid] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.ownerUid, "demo-alex"), eq(accounts.type, "postpaid")));
  alex.accountId = postpaid!.id;
  const [line] = await db.select().from(lines).where(eq(lines.msisdn, "+12025550102"));
  alex.lineId = line!.id;
  const [prepaidLine] = await db
    .select({ id: lines.id, accountId: lines.accountId })
    .from(lines)
    .where(eq(lines.msisdn, "+12025550101"));
  alex.prepaidLineId = prepaidLine!.id;
  alex.prepaidAccountId = prepaidLine!.accountId;
  // A second line on the postpaid account: not the member's.
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = line!;
  const [second] = await db
    .insert(lines)
    .values({ ...copy, msisdn: "+12025550178", iccid: "8901260000000017878" })
    .returning({ id: lines.id });
  alex.otherLineId = second!.id;
  const [bill] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(eq(invoices.accountId, alex.accountId))
    .limit(1);
  alex.invoiceId = bill!.id;
  member = await join(await newSubscriber(backend, "live-member"), "member", [alex.lineId]);
  manager = await join(await newSubscriber(backend, "live-manager"), "manager", []);
});

afterAll(async () => {
  streams.forEach((s) => s.close());
  await bus?.close();
  await backend?.close();
});

describe("GET /api/v1/live for the people on an account", () => {
  it("a member hears their line's changes only; a manager every line of the account; another subscriber none", async () => {
    const [ofMember, ofManager, ofSam, ofAlex] = [
      await follow(member.token),
      await follow(manager.token),
      await follow(await backend.tokenFor(SAM)),
      await follow(await backend.tokenFor(ALEX)),
    ];

    await touchLine(alex.otherLineId);
    let closing = await closeStep();
    const other = [`lines:${alex.otherLineId}`, `meters:${alex.otherLineId}`];
    expect(await heardUntil(ofAlex, closing)).toEqual(other);
    expect(await heardUntil(ofManager, closing)).toEqual(other);
    expect(await heardUntil(ofMember, closing)).toEqual([]);
    expect(await heardUntil(ofSam, closing)).toEqual([]);

    await touchLine(alex.lineId);
    closing = await closeStep();
    const theirs = [`lines:${alex.lineId}`, `meters:${alex.lineId}`];
    expect(await heardUntil(ofAlex, closing)).toEqual(theirs);
    expect(await heardUntil(ofManager, closing)).toEqual(theirs);
    expect(await heardUntil(ofMember, closing)).toEqual(theirs);
    expect(await heardUntil(ofSam, closing)).toEqual([]);
  });

  it("a manager hears the account's bills and balance history; a member never does", async () => {
    const [ofMember, ofManager, ofSam] = [
      await follow(member.token),
      await follow(manager.token),
      await follow(await backend.tokenFor(SAM)),
    ];
    await publish({ resource: "invoices", type: "updated", ids: [alex.invoiceId], ownerUids: ["demo-alex"] });
    // A balance moved: its writers name the account (here the postpaid one, then alex's prepaid one).
    await publish({ resource: "ledger-entries", type: "created", ids: [alex.accountId], ownerUids: ["demo-alex"] });
    await publish({
      resource: "ledger-entries",
      type: "created",
      ids: [alex.prepaidAccountId],
      ownerUids: ["demo-alex"],
    });
    const closing = await closeStep();
    expect(await heardUntil(ofManager, closing)).toEqual([
      `invoices:${alex.invoiceId}`,
      `ledger-entries:${alex.accountId}`,
    ]);
    expect(await heardUntil(ofMember, closing)).toEqual([]);
    expect(await heardUntil(ofSam, closing)).toEqual([]);
  });

  it("the holder's other account is not theirs: its line's changes reach neither", async () => {
    const [ofMember, ofManager, ofAlex] = [
      await follow(member.token),
      await follow(manager.token),
      await follow(await backend.tokenFor(ALEX)),
    ];
    await touchLine(alex.prepaidLineId);
    const closing = await closeStep();
    expect(await heardUntil(ofAlex, closing)).toEqual([`lines:${alex.prepaidLineId}`, `meters:${alex.prepaidLineId}`]);
    expect(await heardUntil(ofManager, closing)).toEqual([]);
    expect(await heardUntil(ofMember, closing)).toEqual([]);
  });

  it("membership is read on every event: a member taken off the account stops hearing at once, stream open or not", async () => {
    const ofMember = await follow(member.token);
    // Straight in the database: no instance is told, yet the next event already finds them off it.
    await backend.database.db.delete(accountMembers).where(eq(accountMembers.id, member.memberId));
    await touchLine(alex.lineId);
    const closing = await closeStep();
    expect(await heardUntil(ofMember, closing)).toEqual([]);
  });

  it("removing a manager ends their streams on every instance; a new one hears nothing of the account", async () => {
    const other = await backend.startAnotherInstance();
    const onOther = await openLiveStream(await listenOn(other.app), FOLLOWED, { token: manager.token });
    streams.push(onOther);
    const ofManager = await follow(manager.token);
    expect(onOther.status).toBe(200);
    const removed = await backend.send("POST", `/api/v1/accounts/${alex.accountId}/actions/remove-member`, {
      as: ALEX,
      body: { memberId: manager.memberId },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await ofManager.ended;
    await onOther.ended;

    const again = await follow(manager.token);
    await touchLine(alex.otherLineId);
    const closing = await closeStep();
    expect(await heardUntil(again, closing)).toEqual([]);
  });
});
