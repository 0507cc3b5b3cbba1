import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../server/db/schema";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, SAM, TAYLOR } from "../support/fixtures";

// Consent on the profile (GET/PUT /api/v1/me/consent): a person's own choice, the newer one winning,
// audited, per operator; bad input names the field and changes nothing.
let backend: TestBackend;
const URL = "/api/v1/me/consent";

beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

const put = (as: string, body: unknown, operator?: string) => backend.send("PUT", URL, { as, body, operator });
const read = async (as: string, operator?: string) => {
  const res = await backend.get(URL, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ consent: unknown }>().consent;
};

describe("consent on the profile", () => {
  it("is empty until chosen, then holds the choice, audited", async () => {
    expect(await read(SAM)).toBeNull();
    const choice = { analytics: true, chat: false, decidedAt: "2026-11-01T10:00:00.000Z" };
    const res = await put(SAM, choice);
    expect(res.statusCode, res.body).toBe(200);
    expect(await read(SAM)).toEqual(choice);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "consent.update"), eq(auditEvents.actorUid, "demo-sam")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toEqual(choice);
  });

  it("a decision older than the stored one does not replace it (two devices syncing out of order)", async () => {
    await put(SAM, { analytics: false, chat: true, decidedAt: "2026-11-02T10:00:00.000Z" });
    const stale = await put(SAM, { analytics: true, chat: true, decidedAt: "2026-10-01T10:00:00.000Z" });
    expect(stale.statusCode).toBe(200);
    expect(await read(SAM)).toEqual({ analytics: false, chat: true, decidedAt: "2026-11-02T10:00:00.000Z" });
  });

  it("is each person's own: another subscriber does not see it", async () => {
    await put(ALEX, { analytics: true, chat: true, decidedAt: "2026-11-03T10:00:00.000Z" });
    expect(await read(ALEX)).toMatchObject({ analytics: true, chat: true });
    expect(await read(SAM)).toMatchObject({ analytics: false, chat: true });
  });

  it("answers 401 without a token", async () => {
    expect((await backend.send("GET", URL)).statusCode).toBe(401);
    expect(
      (await backend.send("PUT", URL, { body: { analytics: true, chat: true, decidedAt: "2026-11-03T10:00:00Z" } }))
        .statusCode,
    ).toBe(401);
  });

  it("keeps operators apart: another operator's subscriber has their own empty profile, and cannot act as ATT", async () => {
    expect(await read(TAYLOR, "TMO")).toBeNull();
    const asAtt = await backend.get(URL, { as: TAYLOR, operator: "ATT" });
    expect(asAtt.statusCode).toBe(403);
  });

  it.each([
    [{ analytics: "yes", chat: true, decidedAt: "2026-11-03T10:00:00Z" }, "analytics"],
    [{ analytics: true, decidedAt: "2026-11-03T10:00:00Z" }, "chat"],
    [{ analytics: true, chat: true, decidedAt: "yesterday" }, "decidedAt"],
  ])("malformed %j is refused naming %s, and changes nothing", async (body, field) => {
    const before = await read(ALEX);
    const res = await put(ALEX, body);
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain(field);
    expect(await read(ALEX)).toEqual(before);
  });
});
