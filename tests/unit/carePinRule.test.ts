import { describe, expect, it } from "vitest";
import { carePinBodySchema, carePinSchema, isGuessableCarePin } from "../../src/resources/carePin";
import { actionText } from "../../src/components/auditWords";
import { setLocale } from "../../src/i18n";

// The care PIN's rule (issue 27 item 1), shared by the Security page's form and PUT /me/care-pin.
describe("the care PIN rule", () => {
  it.each(["1111", "00000000", "1234", "4321", "0123", "3210", "7890", "8901", "0987", "2109", "345678", "87654321"])(
    "%s is guessable",
    (pin) => {
      expect(isGuessableCarePin(pin)).toBe(true);
      expect(carePinSchema.safeParse(pin).error?.issues.map((i) => i.message)).toEqual(["validation.carePinGuessable"]);
    },
  );

  it.each(["2580", "1357", "1212", "12345670", "739164", "9000", "1123"])("%s is accepted", (pin) => {
    expect(carePinSchema.safeParse(pin).success).toBe(true);
  });

  it.each([undefined, null, 2580, "", "123", "123456789", "12a4", " 2580", "2580 ", "٢٥٨٠", "１２３５"])(
    "%j is not 4 to 8 digits (one message, never also 'guessable')",
    (pin) => {
      expect(carePinSchema.safeParse(pin).error?.issues.map((i) => i.message)).toEqual(["validation.carePinDigits"]);
    },
  );

  it("the body takes the PIN and nothing else", () => {
    expect(carePinBodySchema.safeParse({ pin: "2580" }).success).toBe(true);
    expect(carePinBodySchema.safeParse({ pin: "2580", hint: "birthday" }).success).toBe(false);
    expect(carePinBodySchema.safeParse({}).error?.issues[0]?.path).toEqual(["pin"]);
  });
});

describe("the care PIN in the audit viewer", () => {
  it("reads as words in both languages", () => {
    expect([actionText("care-pin.set"), actionText("care-pin.change")]).toEqual([
      "Set a care PIN",
      "Changed the care PIN",
    ]);
    setLocale("es", { remember: false });
    expect(actionText("care-pin.change")).toBe("Cambió el PIN de atención");
    setLocale("en", { remember: false });
  });
});
