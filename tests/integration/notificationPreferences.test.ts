import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, notificationPreferences, outboxMessages } from "../../server/db/schema";
import { deliverOutbox, OUTBOX_DELIVERY_JOB } from "../../server/domain/outbox/deliver";
import { domainJobs } from "../../server/domain/jobs";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, SAM, TAYLOR } from "../support/fixtures";

// Notification preferences (issue 10, item 6): GET/PUT /me/notification-preferences, email and SMS
// per alert kind, and the outbox that carries them (logged locally); on TEST_DB.
let backend: TestBackend;
const URL = "/api/v1/me/notification-preferences";
const OFF = { usage80: { email: false, sms: false }, usage100: { email: false, sms: false } };

beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

describe("GET/PUT /me/notification-preferences", () => {
  it("401 without a token", async () => {
    expect((await backend.send("GET", URL)).statusCode).toBe(401);
    expect((await backend.send("PUT", URL, { body: OFF })).statusCode).toBe(401);
  });

  it("all off until chosen; a PUT changes only the caller's own, the kinds it names, audited", async () => {
    expect((await backend.get(URL, { as: ALEX })).json()).toEqual(OFF);
    const res = await backend.send("PUT", URL, { as: ALEX, body: { usage100: { email: true, sms: true } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ usage80: { email: false, sms: false }, usage100: { email: true, sms: true } });
    const again = await backend.send("PUT", URL, { as: ALEX, body: { usage80: { email: true, sms: false } } });
    expect(again.json()).toEqual({ usage80: { email: true, sms: false }, usage100: { email: true, sms: true } });
    expect((await backend.get(URL, { as: ALEX })).json()).toEqual(again.json());
    // Another subscriber, and another operator's subscriber, see their own (untouched) choices.
    expect((await backend.get(URL, { as: SAM })).json()).toEqual(OFF);
    expect((await backend.get(URL, { as: TAYLOR, operator: "TMO" })).json()).toEqual(OFF);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "notification-preferences.update"), eq(auditEvents.actorUid, "demo-alex")));
    expect(audit).toHaveLength(2);
  });

  it("malformed input: 400 naming the field, nothing written", async () => {
    for (const [body, path] of [
      [{ usage80: { email: "yes", sms: false } }, "usage80.email"],
      [{ usage100: { email: true } }, "usage100.sms"],
      [{ usage50: { email: true, sms: true } }, ""],
    ] as const) {
      const res = await backend.send("PUT", URL, { as: SAM, body });
      expect(res.statusCode, res.body).toBe(400);
      const errors = res.json<{ errors?: { path: string }[] }>().errors ?? [];
      if (path) expect(errors.map((e) => e.path)).toContain(path);
    }
    expect(
      await backend.database.db
        .select()
        .from(notificationPreferences)
        .where(eq(notificationPreferences.uid, "demo-sam")),
    ).toEqual([]);
  });
});

describe("the outbox", () => {
  it("sends (locally: logs) each pending message once and marks it sent; runs every minute as a durable job", async () => {
    const db = backend.database.db;
    await db.insert(outboxMessages).values([
      {
        operatorCode: "ATT",
        channel: "email",
        recipient: "alex@example.com",
        kind: "usage.threshold",
        params: { threshold: 80 },
      },
      {
        operatorCode: "ATT",
        channel: "sms",
        recipient: "+12025550101",
        kind: "usage.threshold",
        params: { threshold: 100 },
      },
    ]);
    const sent: string[] = [];
    expect(
      await deliverOutbox(db, (m) => {
        sent.push(`${m.channel}:${m.recipient}`);
        return Promise.resolve();
      }),
    ).toBe(2);
    expect(sent.sort()).toEqual(["email:alex@example.com", "sms:+12025550101"]);
    expect(
      await deliverOutbox(db, () => {
        sent.push("again");
        return Promise.resolve();
      }),
    ).toBe(0);
    expect(await db.select().from(outboxMessages).where(isNull(outboxMessages.sentAt))).toEqual([]);
    expect(domainJobs({} as never).find((j) => j.name === OUTBOX_DELIVERY_JOB)?.cron).toBe("* * * * *");
  });

  it("logs each message as it reads, in the language it was queued in, never as raw parameters, and no number in full", async () => {
    const db = backend.database.db;
    await db.insert(outboxMessages).values({
      operatorCode: "ATT",
      channel: "sms",
      recipient: "+12025550199",
      kind: "usage.threshold",
      params: { msisdn: "+12025550199", usageType: "voice", threshold: 80 },
      locale: "es",
    });
    const logged: string[] = [];
    const info = vi.spyOn(console, "info").mockImplementation((line: string) => void logged.push(line));
    try {
      expect(await deliverOutbox(db)).toBe(1);
    } finally {
      info.mockRestore();
    }
    expect(logged).toEqual(["[outbox] sms to •••0199 (es): •••0199: en este ciclo has usado el 80 % de tus llamadas."]);
  });
});
