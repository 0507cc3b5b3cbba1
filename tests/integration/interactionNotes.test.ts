import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionNote } from "../../src/resources/interactionNotes";
import type { Line } from "../../src/resources/lines";
import type { Subscriber } from "../../src/resources/subscribers";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TMO_AGENT } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// Interaction notes on the subscriber 360 (issue 27 item 6) through the engine, on the real database
// and the Auth emulator: staff write them on one account, they belong to the person (every account
// of the holder shows them), newest first with who and when; subscribers never reach them.
const NOTES = "/api/v1/interaction-notes";

let backend: TestBackend;
let alexAccounts: string[];
let samAccount: string;

const list = async (personId: string, as = AGENT) => {
  const res = await backend.get(`${NOTES}?filter[personId]=${encodeURIComponent(personId)}&pageSize=50`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: InteractionNote[]; total: number }>();
};
const write = (subscriberId: string, text: unknown, as = AGENT, operator?: string) =>
  backend.send("POST", NOTES, { as, operator, body: { subscriberId, text } });

beforeAll(async () => {
  backend = await startTestBackend();
  const own = async (as: string) =>
    (await backend.get(`/api/v1/lines?sort=msisdn`, { as })).json<{ data: Line[] }>().data;
  alexAccounts = [...new Set((await own(ALEX)).map((l) => l.accountId))];
  samAccount = (await own(SAM))[0]!.accountId;
});

afterAll(async () => {
  await backend?.close();
});

describe("interaction notes", () => {
  it("belong to the person: written on one of Alex's accounts, listed on both, newest first, with who and when", async () => {
    expect(alexAccounts).toHaveLength(2);
    const [first, second] = alexAccounts as [string, string];
    const before = Date.now();
    const a = await write(first, "  Called about roaming charges in Canada.  ");
    expect(a.statusCode, a.body).toBe(201);
    const b = await write(second, "Called back: the overage is correct, explained it.", ADMIN);
    expect(b.statusCode, b.body).toBe(201);
    const noteA = a.json<InteractionNote>();
    expect(noteA).toMatchObject({
      subscriberId: first,
      personId: "demo-alex",
      text: "Called about roaming charges in Canada.",
      authorName: "Casey Agent",
    });
    expect(Date.parse(noteA.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    // The 360 of either account asks for the person's notes: both, the newest first.
    const subscribers = await Promise.all(
      alexAccounts.map(async (id) =>
        (await backend.get(`/api/v1/subscribers/${id}`, { as: AGENT })).json<Subscriber>(),
      ),
    );
    expect(subscribers.map((s) => s.personId)).toEqual(["demo-alex", "demo-alex"]);
    const notes = await list("demo-alex");
    expect(notes.data.map((n) => n.text).slice(0, 2)).toEqual([
      "Called back: the overage is correct, explained it.",
      "Called about roaming charges in Canada.",
    ]);
    expect(notes.data[0]!.authorName).not.toBe("Casey Agent");
    // Not another person's: Sam has none of Alex's notes.
    expect((await list("demo-sam")).data.map((n) => n.text)).not.toContain("Called about roaming charges in Canada.");

    // Written down in the audit trail: who wrote which note.
    const audit = await backend.get(`/api/v1/audit-events?filter[action][startswith]=interaction-notes&pageSize=50`, {
      as: ADMIN,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    const events = audit.json<{ data: { targetId: string; actorUid: string }[] }>().data;
    expect(events.find((e) => e.targetId === noteA.id)).toMatchObject({ actorUid: "demo-agent" });
  });

  it("an account no one holds is its own person", async () => {
    const found = await backend.get(`/api/v1/subscribers?q=${encodeURIComponent("Jordan Garcia")}`, { as: AGENT });
    const unheld = found.json<{ data: Subscriber[] }>().data.find((s) => s.name === "Jordan Garcia")!;
    expect(unheld.personId).toBe(unheld.id);
    expect((await write(unheld.id, "Asked for a paper bill.")).statusCode).toBe(201);
    expect((await list(unheld.id)).data.map((n) => n.text)).toContain("Asked for a paper bill.");
  });

  it("400 at text when empty, blank, too long or not text; 400 at subscriberId for an unknown account", async () => {
    expectProblem(await write(samAccount, ""), 400, "text");
    expectProblem(await write(samAccount, "   "), 400, "text");
    expectProblem(await write(samAccount, "x".repeat(2001)), 400, "text");
    expectProblem(await write(samAccount, 42), 400, "text");
    expectProblem(await backend.send("POST", NOTES, { as: AGENT, body: { subscriberId: samAccount } }), 400, "text");
    expectProblem(await write("00000000-0000-4000-8000-000000000000", "Hello"), 400, "subscriberId");
    // Who wrote it and whose it is are the server's to say (the engine refuses server-set fields, 403 at the field).
    expectProblem(
      await backend.send("POST", NOTES, {
        as: AGENT,
        body: { subscriberId: samAccount, text: "Hi", authorName: "Someone else" },
      }),
      403,
      "authorName",
    );
    expect((await write(samAccount, "x".repeat(2000))).statusCode).toBe(201);
  });

  it("401 without a token; 403 for subscribers, even about themselves", async () => {
    expectProblem(await backend.send("GET", `${NOTES}?filter[personId]=demo-sam`), 401);
    expectProblem(await backend.send("POST", NOTES, { body: { subscriberId: samAccount, text: "Hi" } }), 401);
    expectProblem(await backend.get(`${NOTES}?filter[personId]=demo-sam`, { as: SAM }), 403);
    expectProblem(await write(samAccount, "I am fine", SAM), 403);
    const note = (await write(samAccount, "Sam asked about his PIN.")).json<InteractionNote>();
    expectProblem(await backend.get(`${NOTES}/${note.id}`, { as: SAM }), 403);
  });

  it("another operator's staff find neither the notes nor the account (404, empty list, 400 at the reference)", async () => {
    const note = (await write(samAccount, "Only ATT staff read this.")).json<InteractionNote>();
    expectProblem(await backend.get(`${NOTES}/${note.id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    const tmoList = await backend.get(`${NOTES}?filter[personId]=demo-sam`, { as: TMO_AGENT, operator: "TMO" });
    expect(tmoList.statusCode, tmoList.body).toBe(200);
    expect(tmoList.json<{ total: number }>().total).toBe(0);
    expectProblem(await write(samAccount, "Hello from TMO", TMO_AGENT, "TMO"), 400, "subscriberId");
    // Notes are written, not rewritten: no edit or delete for anyone.
    expect(
      (await backend.send("PATCH", `${NOTES}/${note.id}`, { as: ADMIN, body: { text: "changed" } })).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect((await backend.send("DELETE", `${NOTES}/${note.id}`, { as: ADMIN })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await backend.get(`${NOTES}/${note.id}`, { as: ADMIN })).json<InteractionNote>().text).toBe(
      "Only ATT staff read this.",
    );
  });
});
