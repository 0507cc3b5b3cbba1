import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { movementLabel } from "../../src/pages/subscriber/Movements";

afterEach(() => setLocale("en", { remember: false }));

describe("a money movement in words", () => {
  it("a pass bought through an order is a pass, not a plan change", () => {
    const pass = { kind: "charge", referenceType: "order", reason: "Add-on 1 GB data pass on +12025550101" } as const;
    const change = {
      kind: "charge",
      referenceType: "order",
      reason: "Plan change from Prepaid 5 GB to Prepaid 15 GB for 12 of 30 days",
    } as const;
    expect(movementLabel(pass)).toBe("Pass bought");
    expect(movementLabel(change)).toBe("Plan change");
    setLocale("es", { remember: false });
    expect(movementLabel(pass)).not.toBe(movementLabel(change));
  });

  it("by its source, else by its kind", () => {
    expect(movementLabel({ kind: "top_up", referenceType: "voucher", reason: "Voucher top-up" })).toBe("Voucher");
    expect(movementLabel({ kind: "adjustment", referenceType: null, reason: "Goodwill" })).toBe(
      movementLabel({ kind: "adjustment", referenceType: null, reason: "Other words" }),
    );
  });
});
