import { describe, expect, it } from "vitest";
import { routingNumberValid } from "../../src/resources/paymentMethods";
import { itemOf } from "../../server/domain/money/billing";
import { centsOf } from "../../src/pages/money/PayBillDialog";

// Issue 24: the ABA routing checksum, what a bill line is from its ledger reference, and the pay dialog's amount.
describe("routingNumberValid (ABA checksum)", () => {
  it("takes real routing numbers and refuses one digit off, short, long or not digits", () => {
    for (const good of ["110000000", "021000021", "026009593", "121000248", "011000015"])
      expect(routingNumberValid(good), good).toBe(true);
    for (const bad of ["110000001", "021000022", "12100024", "1210002480", "12100024a", "", "000000001"])
      expect(routingNumberValid(bad), bad).toBe(false);
  });
});

describe("itemOf", () => {
  const charge = (
    referenceType: string | null,
    referenceId: string | null = null,
    orderType: string | null = null,
  ) => ({ amount: 100, reason: "why", referenceType, referenceId, orderType });
  it("names each line's kind from its reference, overage with its usage type and zone", () => {
    expect(itemOf(charge("line", "l1"))).toMatchObject({ label: "plan" });
    expect(itemOf(charge("add_on_purchase", "p1"))).toMatchObject({ label: "add_on" });
    expect(itemOf(charge("order", "o1", "add_on"))).toMatchObject({ label: "add_on" });
    expect(itemOf(charge("order", "o1", "change_plan"))).toMatchObject({ label: "proration" });
    expect(itemOf(charge("overage", "line-1:data:canada_mexico"))).toEqual({
      label: "overage",
      description: "why",
      amount: 100,
      usageType: "data",
      roamingZone: "canada_mexico",
    });
    expect(itemOf(charge("overage", "line-1:voice:home"))).toMatchObject({ usageType: "voice", roamingZone: "home" });
    expect(itemOf(charge(null))).toMatchObject({ label: "other" });
    expect(itemOf(charge("approval", "a1"))).toMatchObject({ label: "other" });
  });
});

describe("centsOf", () => {
  it("reads dollars and cents without floating point", () => {
    expect(centsOf("12.5")).toBe(1250);
    expect(centsOf("$ 0.07")).toBe(7);
    expect(centsOf("86,60")).toBe(8660);
    expect(centsOf("100")).toBe(10000);
    for (const bad of ["", "abc", "1.234", "-5", "1e3"]) expect(centsOf(bad), bad).toBeNull();
  });
});
