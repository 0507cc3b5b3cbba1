import { afterEach, describe, expect, it } from "vitest";
import { noticeText } from "../../src/components/noticeText";
import { overageText, pastAllowanceWords, roamingWords } from "../../src/components/plans/overageWords";
import { setLocale } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { overageSchema, rateOf, type Overage } from "../../src/resources/overage";

addResourceMessages();
afterEach(() => setLocale("en", { remember: false }));

// Issue 24: the plan cards say in words what happens past an allowance, and the capped notice reads
// as a sentence, in English and Spanish; the rates' schema refuses what cannot be a rate.
const usd = (amount: number) => ({ amount, currency: "USD" });
const overage: Overage = {
  data: { unitMb: 1, price: usd(1) },
  voice: { price: usd(10) },
  sms: null,
  roaming: { europe: { data: { unitMb: 1024, price: usd(1000) }, voice: { price: usd(50) }, sms: null } },
};
const plan = { dataMb: 15_360, voiceMinutes: 500, sms: 100, overage };

describe("a plan's overage in words", () => {
  it("says the rate after each allowance, or where the service stops; nothing for unlimited", () => {
    expect(pastAllowanceWords(plan, "data")).toBe("then $0.01/MB");
    expect(pastAllowanceWords(plan, "voice")).toBe("then $0.10/min");
    expect(pastAllowanceWords(plan, "sms")).toBe("texts stop at 100 texts");
    expect(pastAllowanceWords({ ...plan, overage: null }, "data")).toBe("data stops at 15 GB");
    expect(pastAllowanceWords({ ...plan, dataMb: null }, "data")).toBeNull();
    expect(roamingWords(plan)).toEqual(["In Europe past the allowance: $10.00/GB, $0.50/min"]);
    expect(overageText({ ...plan, dataMb: null, voiceMinutes: null, sms: null, overage: null })).toBe(
      "Nothing is charged past the allowance",
    );
  });

  it("in Spanish too, with no keys or placeholders left", () => {
    setLocale("es", { remember: false });
    expect(pastAllowanceWords(plan, "data")).toMatch(/^luego .*0[.,]01.*\/MB$/);
    expect(pastAllowanceWords({ ...plan, overage: null }, "data")).toBe("los datos se detienen al llegar a 15 GB");
    const text = overageText(plan);
    expect(text).toContain("Europa");
    expect(text).not.toMatch(/\{\{|overage\.|enums\./);
  });

  it("the capped notice names the type, the number and why, in both languages", () => {
    const notice = {
      kind: "usage.capped" as const,
      params: { msisdn: "+12025550101", usageType: "data", capReason: "balance" },
    };
    expect(noticeText(notice)).toBe(
      "Your data on (202) 555-0101 stopped for this cycle: your balance cannot pay for more. Top up to continue.",
    );
    setLocale("es", { remember: false });
    expect(noticeText(notice)).toBe(
      "Tus datos en (202) 555-0101 se detuvieron en este ciclo: tu saldo no alcanza para más. Recarga para continuar.",
    );
  });
});

describe("the rates' schema and lookup", () => {
  it("refuses a negative rate and a unit of 0 at the field; a zone without its own rate is capped", () => {
    const bad = overageSchema.safeParse({ ...overage, data: { unitMb: 0, price: usd(1) }, voice: { price: usd(-1) } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["data.unitMb", "voice.price.amount"]),
    );
    expect(rateOf(overage, "data", "home")).toEqual({ unit: 1, amount: 1, currency: "USD" });
    expect(rateOf(overage, "voice", "europe")).toEqual({ unit: 60, amount: 50, currency: "USD" });
    expect(rateOf(overage, "data", "canada_mexico")).toBeNull();
    expect(rateOf(null, "sms", "home")).toBeNull();
  });
});
