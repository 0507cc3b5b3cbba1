import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { orderSummary, orderTitle, stepBy } from "../../src/pages/orders/orderWords";

// A subscriber's order page speaks of what was asked and who did what, never of types, states or roles as stored.
addResourceMessages();

describe("an order in words", () => {
  afterEach(() => setLocale("en"));

  it("titles it by its kind and number, and says what it changes", () => {
    expect(orderTitle({ type: "change_plan", msisdn: "+12025550101" })).toBe("Plan change for (202) 555-0101");
    expect(
      orderSummary({ type: "change_plan", details: { fromPlanName: "Prepaid 5 GB", toPlanName: "Prepaid 15 GB" } }),
    ).toBe("From Prepaid 5 GB to Prepaid 15 GB.");
    expect(orderSummary({ type: "add_on", details: { addOnName: "Data pass 5 GB", autoRenew: true } })).toBe(
      "Data pass 5 GB, renewing until you stop it.",
    );
    expect(orderSummary({ type: "suspend", details: { suspendReason: "lost" } })).toBe(
      "Service paused because the phone was lost.",
    );
    expect(orderSummary({ type: "sim_swap", details: { simType: "physical", delivery: { line1: "1 Main St" } } })).toBe(
      "A new SIM card, posted to you.",
    );
    expect(orderSummary({ type: "change_plan", details: {} })).toBeNull();
    expect([stepBy("subscriber"), stepBy("agent"), stepBy("system")]).toEqual([
      "by you",
      "by our team",
      "automatically",
    ]);
  });

  it("in Spanish too", () => {
    setLocale("es");
    expect(orderTitle({ type: "suspend", msisdn: "+12025550101" })).toBe("Suspensión del (202) 555-0101");
    expect(orderSummary({ type: "restore", details: {} })).toBe("Servicio reactivado.");
    expect(stepBy("admin")).toBe("por nuestro equipo");
  });
});
