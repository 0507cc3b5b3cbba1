import { afterEach, describe, expect, it } from "vitest";
import { noticeText } from "../../src/components/noticeText";
import { setLocale } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { messageText } from "../../server/domain/outbox/messageText";
import { loadServerConfig } from "../../server/config";
import { verdictOf } from "../../server/portingExchange/standIn";

addResourceMessages();
afterEach(() => setLocale("en", { remember: false }));

// Port-in (issue 28 item 3): every step reads as a sentence in both languages, the exchange's reason
// in words; the stand-in's rule is the one the demo and docs/decisions.md describe.
const rejected = {
  kind: "port_in.rejected" as const,
  params: { msisdn: "+12025550188", portInReason: "transfer_pin_mismatch" },
};

describe("port-in words", () => {
  it("notices name the number and why the exchange refused, in English and Spanish", () => {
    expect(noticeText(rejected)).toBe(
      "Moving (202) 555-0188 did not work. Your old carrier refused: the transfer PIN does not match. Correct the details and send it again from the order.",
    );
    expect(
      noticeText({ kind: "port_in.submitted", params: { msisdn: "+12025550188", temporaryMsisdn: "+12025559001" } }),
    ).toContain("(202) 555-9001");
    setLocale("es", { remember: false });
    expect(noticeText(rejected)).toContain("el PIN de portabilidad no coincide");
    for (const kind of ["port_in.submitted", "port_in.accepted", "port_in.resubmitted"] as const)
      expect(noticeText({ kind, params: { msisdn: "+12025550188", byRole: "agent" } })).not.toMatch(/port_in|\{\{/);
  });

  it("emails and SMS of an answer are worded in the holder's language", () => {
    const es = messageText({ channel: "email", kind: "port_in.rejected", params: rejected.params, locale: "es" });
    expect(es.body).toContain("el PIN de portabilidad no coincide.");
    const sms = messageText({
      channel: "sms",
      kind: "port_in.accepted",
      params: { msisdn: "+12025550188" },
      locale: "en",
    });
    expect(sms).toEqual({ subject: null, body: "+12025550188 has moved to us: this line now uses it." });
  });
});

describe("the exchange's stand-in and its configuration", () => {
  it("refuses a wrong PIN, ZIP or account of a number it holds, PIN 0000 or ZIP 00000 of any other, and accepts the rest", () => {
    const known = { msisdn: "+12025550188", carrierAccount: "55501", transferPin: "2468", zip: "20001" };
    expect(verdictOf(known)).toEqual({ accepted: true });
    expect(verdictOf({ ...known, transferPin: "1111" }).reasonCode).toBe("transfer_pin_mismatch");
    expect(verdictOf({ ...known, zip: "20002" }).reasonCode).toBe("zip_mismatch");
    expect(verdictOf({ ...known, carrierAccount: "1" }).reasonCode).toBe("account_mismatch");
    const other = { msisdn: "+13015550100", carrierAccount: "x", transferPin: "1234", zip: "10001" };
    expect(verdictOf(other)).toEqual({ accepted: true });
    expect(verdictOf({ ...other, transferPin: "0000" }).reasonCode).toBe("transfer_pin_mismatch");
    expect(verdictOf({ ...other, zip: "00000" }).reasonCode).toBe("zip_mismatch");
  });

  it("local mode runs the stand-in on PORTING_EXCHANGE_PORT; production talks only to a configured exchange", () => {
    const local = loadServerConfig({ PORTING_DELAY_MS: "50" });
    expect(local.portingExchange?.url).toBe("http://127.0.0.1:8091");
    expect(local.portingStandIn).toEqual({ port: 8091, delayMs: 50 });
    const production = { APP_MODE: "production", SECRETS_KEY: Buffer.alloc(32, 1).toString("base64") };
    expect(loadServerConfig(production).portingExchange).toBeUndefined();
    expect(() => loadServerConfig({ ...production, PORTING_EXCHANGE_URL: "https://npac.example" })).toThrow(
      /PORTING_WEBHOOK_SECRET/,
    );
    const wired = loadServerConfig({
      ...production,
      PORTING_EXCHANGE_URL: "https://npac.example",
      PORTING_EXCHANGE_API_KEY: "key-12345678",
      PORTING_WEBHOOK_SECRET: "a-secret-of-16-chars",
    });
    expect(wired.portingExchange).toMatchObject({ url: "https://npac.example", apiKey: "key-12345678" });
    expect(wired.portingStandIn).toBeUndefined();
  });
});
