import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationPreferences, subscriberProfiles } from "../../server/db/schema";
import { parseServiceKeys } from "../../server/auth/serviceKeys";
import { deliverOutbox } from "../../server/domain/outbox/deliver";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { stringContaining, stringMatching } from "../support/matchers";

// Emails and SMS in the recipient's language (issue 25): the holder's saved profile language is
// decided when the alert is queued, and the sender words it in that language; on TEST_DB.
const ALEX_POSTPAID = "+12025550102"; // alex's 50 GB postpaid line: no saved language, so English
const SAM_LINE = "+12025550103"; // sam's 5 GB prepaid line, stopped at the allowance

let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend({ ingestApiKeys: parseServiceKeys("att-mediation-key", "ATT") });
});
afterAll(async () => {
  await backend?.close();
});

async function ingestOk(records: { msisdn: string; quantity: number }[]) {
  const res = await backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    headers: { "content-type": "application/json", "x-operator": "ATT", authorization: "ApiKey att-mediation-key" },
    payload: {
      records: records.map((r) => ({
        id: `test-${randomUUID()}`,
        type: "data",
        startedAt: new Date(Date.now() - 5 * 60_000).toISOString(),
        ...r,
      })),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe("usage alerts by email and SMS", () => {
  it("go out in the holder's saved language: Spanish for a Spanish profile, English for one without", async () => {
    const db = backend.database.db;
    await db
      .insert(subscriberProfiles)
      .values({ operatorCode: "ATT", uid: "demo-sam", details: { language: "es" } })
      .onConflictDoUpdate({
        target: [subscriberProfiles.operatorCode, subscriberProfiles.uid],
        set: { details: { language: "es" } },
      });
    for (const uid of ["demo-sam", "demo-alex"])
      await db
        .insert(notificationPreferences)
        .values({ operatorCode: "ATT", uid, usageLimitByEmail: true, usageLimitBySms: true })
        .onConflictDoUpdate({
          target: [notificationPreferences.operatorCode, notificationPreferences.uid],
          set: { usageLimitByEmail: true, usageLimitBySms: true },
        });

    // Both lines use their whole data allowance in one batch: one 100 % alert each.
    await ingestOk([
      { msisdn: SAM_LINE, quantity: 5 * 1024 + 100 },
      { msisdn: ALEX_POSTPAID, quantity: 50 * 1024 },
    ]);
    const sent: { to: string; kind: string; locale: string; subject: string | null; body: string }[] = [];
    await deliverOutbox(db, (message, words) => {
      sent.push({ to: message.recipient, kind: message.kind, locale: message.locale, ...words });
      return Promise.resolve();
    });
    const find = (to: string, kind: string) => sent.find((m) => m.to === to && m.kind === kind);

    expect(find("sam@example.com", "usage.threshold")).toEqual({
      to: "sam@example.com",
      kind: "usage.threshold",
      locale: "es",
      subject: `Has usado el 100 % de tus datos en ${SAM_LINE}`,
      body: stringMatching(/^Hola:\n\nEn este ciclo has usado el 100 % de tus datos en \+12025550103\./),
    });
    const samSms = find(SAM_LINE, "usage.threshold")!;
    expect(samSms).toMatchObject({ locale: "es", subject: null });
    expect(samSms.body).toBe(`${SAM_LINE}: en este ciclo has usado el 100 % de tus datos.`);
    expect(samSms.body.length).toBeLessThanOrEqual(160);
    // Sam's plan stops data at the allowance: that is said in Spanish too, with the reason.
    expect(find("sam@example.com", "usage.capped")).toMatchObject({
      locale: "es",
      subject: `Tus datos en ${SAM_LINE} se detuvieron en este ciclo`,
      body: stringContaining("tu plan no incluye nada más allá de lo contratado"),
    });
    const samCappedSms = find(SAM_LINE, "usage.capped")!;
    expect(samCappedSms.body).toMatch(/^\+12025550103: tus datos se detuvieron en este ciclo: tu plan/);
    expect(samCappedSms.body.length).toBeLessThanOrEqual(160);

    expect(find("alex@example.com", "usage.threshold")).toMatchObject({
      locale: "en",
      subject: `You have used 100 % of your data on ${ALEX_POSTPAID}`,
      body: stringMatching(/^Hello,\n\nYou have used 100 % of your data this cycle on \+12025550102\./),
    });
    expect(find(ALEX_POSTPAID, "usage.threshold")?.body).toBe(
      `${ALEX_POSTPAID}: you have used 100 % of your data this cycle.`,
    );
    // Nothing goes out as raw parameters.
    for (const message of sent) expect(message.body).not.toMatch(/[{}]|usageType|threshold/);
  });
});
