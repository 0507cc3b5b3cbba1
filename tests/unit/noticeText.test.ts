import { afterEach, describe, expect, it } from "vitest";
import { noticeText } from "../../src/components/noticeText";
import { setLocale } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";

addResourceMessages();
afterEach(() => setLocale("en", { remember: false }));

// The notices of issue 12 items 4 and 6 read as sentences in both languages: money in the reader's
// format, the number as shown everywhere, the decision and the request's kind in words.
const priceChanged = {
  kind: "plan.price_changed" as const,
  params: {
    planName: "Postpaid Extra 50 GB",
    msisdn: "+12025550102",
    amount: 7200,
    currency: "USD",
    date: "2026-12-12",
  },
};
const decided = (decision: string) => ({
  kind: "approval.decided" as const,
  params: {
    decision,
    approvalKind: "adjustment",
    amount: 7100,
    currency: "USD",
    accountName: "Sam Chen",
    reason: "outage confirmed",
    byRole: "admin",
  },
});

describe("noticeText", () => {
  it("a price change names the plan, the new price, the line and the day it starts paying it", () => {
    const text = noticeText(priceChanged);
    expect(text).toContain("Postpaid Extra 50 GB");
    expect(text).toContain("$72.00");
    expect(text).toContain("(202) 555-0102");
    // The day as people write it, never the ISO form it travels in.
    expect(text).toContain("Dec 12, 2026");
    expect(text).not.toContain("2026-12-12");
    expect(text).not.toMatch(/\{\{|undefined/);
    setLocale("es", { remember: false });
    const es = noticeText(priceChanged);
    expect(es).toMatch(/^El precio de Postpaid Extra 50 GB/);
    expect(es).toMatch(/12 dic 2026/);
    expect(es).toContain("(202) 555-0102");
    expect(es).not.toMatch(/\{\{|undefined/);
  });

  it("an approval decision says which request, approved or rejected, by whom and why", () => {
    expect(noticeText(decided("approved"))).toMatch(
      /Credit of \$71\.00 for Sam Chen\) was approved by an administrator: outage confirmed/,
    );
    expect(noticeText(decided("rejected"))).toMatch(/was rejected by an administrator/);
    setLocale("es", { remember: false });
    expect(noticeText(decided("approved"))).toMatch(
      /Abono de .*71.* para Sam Chen\) fue aprobada por un administrador: outage confirmed/,
    );
    expect(noticeText(decided("rejected"))).toMatch(/fue rechazada/);
  });

  it("a returned bank payment whose credit a later bill used says how much is owed again and where", () => {
    const notice = {
      kind: "bill.payment_returned_credit_used" as const,
      params: {
        number: "ATT-1",
        paid: 2100,
        owed: 2100,
        currency: "USD",
        last4: "6789",
        returnCode: "R01",
        creditBill: "ATT-2",
      },
    };
    const text = noticeText(notice);
    expect(text).toContain("$21.00 is added to your next bill");
    expect(text).toContain("bill ATT-2");
    expect(text).not.toMatch(/\{\{|undefined/);
    setLocale("es", { remember: false });
    const es = noticeText(notice);
    expect(es).toMatch(/^Tu banco devolvió el pago de .*21.* de la factura ATT-1/);
    expect(es).toContain("se suma a tu próxima factura");
    expect(es).not.toMatch(/\{\{|undefined|bill/);
  });

  it("an account alert says what changed, on which number, and what to press when it was not you (issue 27)", () => {
    const alert = (change: string, msisdn: string | null = "+12025550101") => ({
      kind: "account.alert" as const,
      params: { change, msisdn, link: `/this-wasnt-me#${"A".repeat(43)}`, days: 7 },
    });
    expect(noticeText(alert("esim-transfer"))).toBe(
      "Security alert: (202) 555-0101 was moved to a new eSIM. If it wasn't you, open this notice and press “This wasn't me”.",
    );
    expect(noticeText(alert("mfa-change", null))).toMatch(/^Security alert: Your two-step verification was changed\. /);
    setLocale("es", { remember: false });
    expect(noticeText(alert("sim-swap"))).toBe(
      "Alerta de seguridad: Se cambió la SIM de (202) 555-0101. Si no fuiste tú, abre este aviso y pulsa «No fui yo».",
    );
  });

  it("a payment that did not go through says why in words, never the gateway's or the bank's code", () => {
    const failed = (failureReason: string) => ({
      kind: "bill.payment_failed" as const,
      params: { number: "ATT-1", total: 7036, currency: "USD", last4: "0002", failureReason },
    });
    expect(noticeText(failed("card_declined"))).toBe(
      "The payment of your bill ATT-1 of $70.36 with your card ending 0002 did not go through (the bank declined the card).",
    );
    // A code the texts do not know still reads as a sentence.
    expect(noticeText(failed("processing_error_42"))).toMatch(/did not go through \(the payment was refused\)\.$/);
    const returned = {
      kind: "bill.payment_returned" as const,
      params: { paid: 2100, currency: "USD", number: "ATT-1", last4: "6789", returnCode: "R01" },
    };
    expect(noticeText(returned)).toContain("(not enough money in the account)");
    setLocale("es", { remember: false });
    expect(noticeText(failed("card_declined"))).toContain("(el banco rechazó la tarjeta)");
    expect(noticeText(failed("card_declined"))).not.toMatch(/card_declined/);
    expect(noticeText(returned)).toContain("(no hay dinero suficiente en la cuenta)");
    expect(noticeText(returned)).not.toMatch(/R01/);
  });
});
