import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, lines, plans, subscriberNames } from "../../server/db/schema";
import type { Line } from "../../src/resources/lines";
import type { Notification } from "../../src/resources/notifications";
import type { Order } from "../../src/resources/orders";
import type { Subscriber, SubscriberIdentity } from "../../src/resources/subscribers";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// Care search (issue 12) through the route factory on the real database and the Auth emulator.
const SUBSCRIBERS = "/api/v1/subscribers";

let backend: TestBackend;
let samLine: Line;
let alexLines: Line[];

async function search(q: string, as = AGENT, operator?: string) {
  const res = await backend.get(`${SUBSCRIBERS}?q=${encodeURIComponent(q)}`, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Subscriber[]; total: number }>();
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const own = async (as: string) =>
    (await backend.get(`/api/v1/lines?sort=msisdn`, { as })).json<{ data: Line[] }>().data;
  [samLine] = (await own(SAM)) as [Line];
  alexLines = await own(ALEX);
});

afterAll(async () => {
  await backend?.close();
});

describe("who may search", () => {
  it("401 without a token, 403 for subscribers, 200 for agents and admins", async () => {
    expectProblem(await backend.send("GET", `${SUBSCRIBERS}?q=0103`), 401);
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=0103`, { as: SAM }), 403);
    expectProblem(await backend.get(`${SUBSCRIBERS}/${samLine.accountId}`, { as: SAM }), 403);
    expectProblem(await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/identity`, { as: SAM }), 403);
    expectProblem(await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/notifications`, { as: ALEX }), 403);
    expect((await search("0103", ADMIN)).total).toBe(1);
  });

  it("never shows another operator's subscribers", async () => {
    // Taylor's number is +13105550199 at TMO: ATT staff find nothing, TMO's agent finds only Taylor.
    expect((await search("5550199")).total).toBe(0);
    expect((await search("Taylor Other")).data.map((s) => s.name)).not.toContain("Taylor Other");
    const tmo = await search("0199", TMO_AGENT, "TMO");
    expect(tmo.data.map((s) => s.name)).toEqual(["Taylor Other"]);
    expect((await search("0103", TMO_AGENT, "TMO")).total).toBe(0);
    expectProblem(await backend.get(`${SUBSCRIBERS}/${samLine.accountId}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    expectProblem(
      await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/identity`, { as: TMO_AGENT, operator: "TMO" }),
      404,
    );
    expectProblem(
      await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/notifications`, { as: TMO_AGENT, operator: "TMO" }),
      404,
    );
    // A TMO user asking as ATT is refused before any search.
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=0103`, { as: TAYLOR }), 403);
  });

  it("400 at q for a search it cannot read: too few digits, one character, control characters", async () => {
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=010`, { as: AGENT }), 400, "q");
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=(20)`, { as: AGENT }), 400, "q");
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=x`, { as: AGENT }), 400, "q");
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=${encodeURIComponent("sam\u0007")}`, { as: AGENT }), 400, "q");
    expectProblem(await backend.get(`${SUBSCRIBERS}?q=${"a".repeat(101)}`, { as: AGENT }), 400, "q");
    expectProblem(await backend.get(`${SUBSCRIBERS}?sort=email`, { as: AGENT }), 400, "sort");
  });
});

describe("one box finds the account", () => {
  it("by any 4+ digits of a number in any format, with only the matching lines", async () => {
    for (const q of ["0103", "5550103", "(202) 555-0103", "+1 202 555 0103", "202.555.0103", "12025550103"]) {
      const { data, total } = await search(q);
      expect(total, q).toBe(1);
      expect(data[0]).toMatchObject({
        id: samLine.accountId,
        name: "Sam Chen",
        email: "sam@example.com",
        lineCount: 1,
      });
      expect(data[0]!.lines).toEqual([
        {
          id: samLine.id,
          msisdn: "+12025550103",
          iccid: samLine.iccid,
          simType: samLine.simType,
          status: samLine.status,
        },
      ]);
    }
    // A prefix common to many numbers finds many accounts; Alex's two accounts each show their own matching line.
    const alex = await search("5550101");
    expect(alex.data).toHaveLength(1);
    expect(alex.data[0]!.lines.map((l) => l.msisdn)).toEqual(["+12025550101"]);
    expect((await search("2025550")).total).toBeGreaterThan(3);
  });

  it("by name, forgiving typos, the closest first", async () => {
    const exact = await search("Sam Chen");
    expect(exact.data[0]).toMatchObject({ name: "Sam Chen" });
    const typo = await search("Sam Chenn");
    expect(typo.data[0]).toMatchObject({ name: "Sam Chen" });
    const swapped = await search("Alx Rivera");
    expect(swapped.data.map((s) => s.name)).toContain("Alex Rivera");
    expect(swapped.data[0]!.relevance).toBeGreaterThanOrEqual(swapped.data.at(-1)!.relevance);
    // An account found by name shows all its lines.
    expect(exact.data[0]!.lines.map((l) => l.id)).toEqual([samLine.id]);
    expect((await search("Zebedee Quux")).total).toBe(0);
  });

  it("by email (the start of it, any case), by ICCID, by account, line or order id", async () => {
    expect((await search("SAM@EXAMPLE.COM")).data.map((s) => s.id)).toEqual([samLine.accountId]);
    expect((await search("sam@ex")).data.map((s) => s.id)).toEqual([samLine.accountId]);
    expect((await search(samLine.iccid!)).data.map((s) => s.id)).toEqual([samLine.accountId]);
    expect((await search(samLine.accountId)).data.map((s) => s.id)).toEqual([samLine.accountId]);
    const byLine = await search(alexLines[1]!.id);
    expect(byLine.data.map((s) => s.id)).toEqual([alexLines[1]!.accountId]);
    expect(byLine.data[0]!.lines.map((l) => l.id)).toEqual([alexLines[1]!.id]);

    // An order placed on Sam's line finds Sam's account.
    const suspended = await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/suspend`, {
      as: SAM,
      body: { suspendReason: "request" },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    const order = suspended.json<{ order: Pick<Order, "id"> }>().order;
    expect((await search(order.id)).data.map((s) => s.id)).toEqual([samLine.accountId]);
    const restored = await backend.send("POST", `/api/v1/lines/${samLine.id}/actions/restore`, { as: SAM });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await search("00000000-0000-4000-8000-000000000000")).total).toBe(0);
  });

  it("follows renamed, new and removed accounts (the distinct names are kept by a trigger)", async () => {
    const db = backend.database.db;
    const [{ id }] = (await db
      .insert(accounts)
      .values({ operatorCode: "ATT", name: "Quentin Blake", type: "prepaid" })
      .returning({ id: accounts.id })) as [{ id: string }];
    expect((await search("Quentin Blak")).data.map((s) => s.id)).toEqual([id]);
    await db.update(accounts).set({ name: "Quentin Drake" }).where(eq(accounts.id, id));
    expect((await search("Quentin Blake")).data.map((s) => s.name)).not.toContain("Quentin Blake");
    expect((await search("Quentin Drak")).data.map((s) => s.id)).toEqual([id]);
    expect(await db.select().from(subscriberNames).where(eq(subscriberNames.name, "Quentin Blake"))).toEqual([]);
    await db.delete(accounts).where(eq(accounts.id, id));
    expect(await db.select().from(subscriberNames).where(eq(subscriberNames.name, "Quentin Drake"))).toEqual([]);
  });

  it("pages with a stable total and refuses unknown filters", async () => {
    const first = await backend.get(`${SUBSCRIBERS}?q=2025550&pageSize=2&page=1`, { as: AGENT });
    const second = await backend.get(`${SUBSCRIBERS}?q=2025550&pageSize=2&page=2`, { as: AGENT });
    const a = first.json<{ data: Subscriber[]; total: number }>();
    const b = second.json<{ data: Subscriber[]; total: number }>();
    expect(a.total).toBe(b.total);
    expect(a.data.map((s) => s.id).filter((id) => b.data.some((s) => s.id === id))).toEqual([]);
    expectProblem(await backend.get(`${SUBSCRIBERS}?filter[email]=x`, { as: AGENT }), 400, "filter[email]");
  });
});

describe("totals that count every match (issue 30, item 3)", () => {
  it("counts every account with a number containing the digits, and every account of every close name", async () => {
    const db = backend.database.db;
    // 150 accounts, one line each, numbers +1 303 555 7000–7149; and 26 distinct names close to
    // "Quentin Marlowe" (itself and 25 one-letter variants), two accounts each.
    const names = ["Quentin Marlowe", ..."abcdefghijklmnopqrstuvwxy".split("").map((c) => `Quentin Marlowe${c}`)];
    const made = await db
      .insert(accounts)
      .values([
        ...Array.from({ length: 150 }, (_, i) => ({
          operatorCode: "ATT",
          name: `Digits Holder ${i}`,
          email: `digits.${i}@example.test`,
          type: "prepaid" as const,
        })),
        ...names.flatMap((name, i) =>
          [0, 1].map((k) => ({
            operatorCode: "ATT",
            name,
            email: `marlowe.${i}.${k}@example.test`,
            type: "postpaid" as const,
          })),
        ),
      ])
      .returning({ id: accounts.id, name: accounts.name });
    const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.operatorCode, "ATT")).limit(1);
    await db.insert(lines).values(
      made
        .filter((a) => a.name.startsWith("Digits Holder"))
        .map((a, i) => ({
          operatorCode: "ATT",
          accountId: a.id,
          msisdn: `+1303555${7000 + i}`,
          // Ends unlike any demo SIM, whose last digits a later test searches.
          iccid: `890141077${String(i).padStart(4, "0")}7777777`,
          simType: "physical" as const,
          planId: plan!.id,
          status: "active" as const,
          cycleDay: 1,
        })),
    );
    // A number search used to stop at its first 100 matching lines; a name search at its 20 closest names.
    expect((await search("303555")).total).toBe(150);
    expect((await search("(303) 555-71")).total).toBe(50);
    const marlowe = await search("Quentin Marlowe");
    expect(marlowe.total).toBe(52);
    // The closest first: the exact spelling, then the variants; a page of the default size.
    expect(marlowe.data.slice(0, 2).map((s) => s.name)).toEqual(["Quentin Marlowe", "Quentin Marlowe"]);
    expect(marlowe.data[1]!.relevance).toBeGreaterThan(marlowe.data[2]!.relevance);
    // Every page holds different accounts, and the pages together hold them all.
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const res = await backend.get(
        `${SUBSCRIBERS}?q=${encodeURIComponent("Quentin Marlowe")}&page=${page}&pageSize=20`,
        {
          as: AGENT,
        },
      );
      for (const row of res.json<{ data: Subscriber[] }>().data) seen.add(row.id);
    }
    expect(seen.size).toBe(52);
    // Sorted by name instead, the same accounts (the ranking by score only shapes pages by relevance).
    const byName = await backend.get(
      `${SUBSCRIBERS}?q=${encodeURIComponent("Quentin Marlowe")}&sort=name&pageSize=100`,
      {
        as: AGENT,
      },
    );
    const named = byName.json<{ data: Subscriber[]; total: number }>();
    expect(named.total).toBe(52);
    expect(new Set(named.data.map((row) => row.id))).toEqual(seen);
    expect(named.data.map((row) => row.name)).toEqual(named.data.map((row) => row.name).sort());
  });
});

describe("the 360's own sections", () => {
  it("sign-in methods and MFA state of the holder, never a secret", async () => {
    const res = await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/identity`, { as: AGENT });
    expect(res.statusCode, res.body).toBe(200);
    const identity = res.json<SubscriberIdentity>();
    expect(identity).toMatchObject({ uid: "demo-sam", email: "sam@example.com", disabled: false, mfa: [] });
    expect(identity.providers.map((p) => p.providerId)).toContain("password");
    expect(res.body).not.toMatch(/passwordHash|passwordSalt|tokensValidAfter|refreshToken/i);
  });

  it("the notices sent to the holder, newest first, paged", async () => {
    const res = await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/notifications?pageSize=1`, { as: AGENT });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: Notification[]; total: number }>();
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]!.kind).toBe("line.restored");
    expectProblem(
      await backend.get(`${SUBSCRIBERS}/${samLine.accountId}/notifications?pageSize=500`, { as: AGENT }),
      400,
      "pageSize",
    );
    expectProblem(await backend.get(`${SUBSCRIBERS}/not-a-uuid/notifications`, { as: AGENT }), 400, "id");
  });
});

describe("the desk's one search (issue 27 item 6)", () => {
  it("finds a name that sounds like the one typed: Smaht is Smith, closest spellings first", async () => {
    // The demo data's unheld accounts include several Smiths (Riley Smith, …); "Smaht" shares too few
    // trigrams with "Smith" for similarity alone, and sounds the same (Soundex S530).
    const smaht = await search("Smaht");
    expect(smaht.total).toBeGreaterThan(0);
    expect(smaht.data.every((s) => /\bSmith\b/.test(s.name))).toBe(true);
    const riley = await search("Riley Smaht");
    expect(riley.data[0]!.name).toBe("Riley Smith");
    // Every typed word must sound like one of the name's: "Riley" alone does not pull in other Smiths.
    expect(riley.data.every((s) => s.name.startsWith("Riley"))).toBe(true);
    expect((await search("Alx Rivra")).data.map((s) => s.name)).toContain("Alex Rivera");
    // Punctuation alone sounds like nothing: it finds nobody rather than everybody.
    expect((await search("?!")).total).toBe(0);
  });

  it("finds a SIM by the last digits of its ICCID, and an account by its number with or without hyphens", async () => {
    expect((await search(samLine.iccid!.slice(-8))).data.map((s) => s.id)).toEqual([samLine.accountId]);
    const lastSix = await search(alexLines[1]!.iccid!.slice(-6));
    expect(lastSix.data.map((s) => s.id)).toContain(alexLines[1]!.accountId);
    expect(lastSix.data.find((s) => s.id === alexLines[1]!.accountId)!.lines.map((l) => l.id)).toEqual([
      alexLines[1]!.id,
    ]);
    expect((await search(samLine.accountId.toUpperCase())).data.map((s) => s.id)).toEqual([samLine.accountId]);
    expect((await search(samLine.accountId.replace(/-/g, ""))).data.map((s) => s.id)).toEqual([samLine.accountId]);
  });

  it("lists every account of one person by personId (the holder, or the account itself)", async () => {
    const alex = alexLines[0]!.accountId;
    const person = (await backend.get(`${SUBSCRIBERS}/${alex}`, { as: AGENT })).json<Subscriber>().personId;
    expect(person).toBe("demo-alex");
    const accountsOf = await backend.get(`${SUBSCRIBERS}?filter[personId]=${person}&sort=createdAt`, { as: AGENT });
    expect(accountsOf.statusCode, accountsOf.body).toBe(200);
    const found = accountsOf.json<{ data: Subscriber[] }>().data;
    expect(found.map((s) => s.id).sort()).toEqual([...new Set(alexLines.map((l) => l.accountId))].sort());
    expect(found.flatMap((s) => s.lines.map((l) => l.msisdn)).sort()).toEqual(["+12025550101", "+12025550102"]);
    // Another operator's staff find no one by that person.
    const tmo = await backend.get(`${SUBSCRIBERS}?filter[personId]=${person}`, { as: TMO_AGENT, operator: "TMO" });
    expect(tmo.json<{ total: number }>().total).toBe(0);
    expectProblem(await backend.get(`${SUBSCRIBERS}?filter[personId]=${person}`, { as: ALEX }), 403);
  });
});
