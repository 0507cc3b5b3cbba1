import { describe, expect, it } from "vitest";
import { messageText } from "../../server/domain/outbox/messageText";
import { descriptionIn, overageDetail } from "../../server/domain/invoices/itemText";
import { ACCOUNT_CHANGES } from "../../src/resources/accountAlerts";
import { ENGLISH_WORDS, SPANISH_LETTERS, SPANISH_WORDS, leakReport, leaksIn } from "../support/languageLeaks";

// The words emails, SMS and bills carry in each language (issue 25): templates and re-wordings.
describe("messageText", () => {
  const capped = {
    kind: "usage.capped",
    params: { msisdn: "+12025550103", usageType: "sms", capReason: "balance" },
  } as const;

  it("words an email (subject and body) and an SMS (body only) in the queued language", () => {
    expect(messageText({ ...capped, channel: "email", locale: "en" })).toEqual({
      subject: "Your texts on +12025550103 stopped for this cycle",
      body: "Hello,\n\nYour texts on +12025550103 stopped for this cycle: your balance cannot pay for more. Top up to continue.\n\nYou can see your usage in the self-service portal.",
    });
    expect(messageText({ ...capped, channel: "sms", locale: "es" })).toEqual({
      subject: null,
      body: "+12025550103: tus SMS se detuvieron en este ciclo: tu saldo no alcanza para más. Recarga para continuar.",
    });
  });

  // Issue 25 item 5: every template, by email and SMS, checked like the walk checks pages.
  it("says no English word in a Spanish email or SMS, and no Spanish word in an English one", () => {
    const samples: { kind: string; params: Record<string, string | number> }[] = [
      { kind: "usage.threshold", params: { msisdn: "+12025550101", usageType: "data", threshold: 80 } },
      { kind: "usage.threshold", params: { msisdn: "+12025550101", usageType: "voice", threshold: 100 } },
      ...(["data", "voice", "sms"] as const).flatMap((usageType) =>
        ["balance", "plan", "pay_as_you_go"].map((capReason) => ({
          kind: "usage.capped",
          params: { msisdn: "+12025550101", usageType, capReason },
        })),
      ),
      {
        kind: "staff.invitation",
        params: { passwordSetupLink: "https://example.test/setup?oob=1", role: "agent", displayName: "Maria" },
      },
      // Account alerts (issue 27), each change.
      ...ACCOUNT_CHANGES.map((change) => ({
        kind: "account.alert",
        params: {
          change,
          msisdn: "+12025550101",
          link: `https://portal.example.test/this-wasnt-me#${"A".repeat(43)}`,
          days: 7,
        },
      })),
    ];
    const leaks = samples.flatMap((sample) =>
      (["email", "sms"] as const).flatMap((channel) => {
        const where = (locale: string) => `${sample.kind} ${JSON.stringify(sample.params)} ${channel} ${locale}`;
        const text = (locale: "en" | "es") => {
          const words = messageText({ ...sample, channel, locale });
          return `${words.subject ?? ""}\n${words.body}`;
        };
        return [
          ...leaksIn(where("es"), text("es"), ENGLISH_WORDS),
          ...leaksIn(where("en"), text("en"), SPANISH_WORDS, SPANISH_LETTERS),
        ];
      }),
    );
    expect(leaks, leakReport(leaks)).toEqual([]);
  });

  it("sends a kind without a template as its kind and params rather than losing it", () => {
    expect(messageText({ kind: "other.kind", channel: "email", locale: "es", params: { a: 1 } })).toEqual({
      subject: "other.kind",
      body: '{"a":1}',
    });
  });
});

describe("bill item descriptions in Spanish", () => {
  const names = new Map([
    ["Postpaid Extra 50 GB", "Pospago Extra 50 GB"],
    ["Data Pass 5 GB", "Pase de datos 5 GB"],
  ]);

  it("re-words the posted forms with the catalog's Spanish names and Spanish dates", () => {
    expect(descriptionIn("Postpaid Extra 50 GB, 2026-10-12 to 2026-11-11 (+12025550102)", "es", names)).toBe(
      "Pospago Extra 50 GB, del 12 oct 2026 al 11 nov 2026 (+12025550102)",
    );
    expect(descriptionIn("Renewal of add-on Data Pass 5 GB on +12025550102", "es", names)).toBe(
      "Renovación del complemento Pase de datos 5 GB en +12025550102",
    );
    expect(descriptionIn("Plan change from Postpaid Extra 50 GB to Starter for 10 of 30 days", "es", names)).toBe(
      "Cambio del plan Pospago Extra 50 GB al plan Starter por 10 de 30 días",
    );
  });

  it("keeps English and a staff member's own words as written", () => {
    expect(descriptionIn("Postpaid Extra 50 GB: monthly plan", "en", names)).toBe("Postpaid Extra 50 GB: monthly plan");
    expect(descriptionIn("Goodwill charge agreed by phone", "es", names)).toBe("Goodwill charge agreed by phone");
  });

  it("says only the quantity and number of an overage in Spanish", () => {
    expect(overageDetail("Texts beyond the allowance, 3 messages (+12025550102)", "es")).toBe(
      "3 mensajes, +12025550102",
    );
    expect(overageDetail("1.5 GB of data beyond the allowance in Canada & Mexico", "es")).toBe("1.5 GB");
  });
});
