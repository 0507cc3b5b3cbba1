import { afterEach, describe, expect, it, vi } from "vitest";
import { getReader, setLocale, setReader, translate as t } from "../../src/i18n";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { fieldText } from "../../src/components/fieldText";
import { linesResource, SELF_SUSPEND_REASONS } from "../../src/resources/lines";
import type { SessionUser } from "../../src/providers/session";

addResourceMessages();

// A staff walk: a care agent acting on a subscriber's line read the subscriber's words ("At your
// request", "Your plan", "The difference comes off your next bill", "you will be asked to confirm it
// is you"). A key may have a `.forStaff` variant, read while staff read; subscribers keep their own.
const user = vi.hoisted(() => ({ current: null as SessionUser | null }));
vi.mock("../../src/providers/session", () => ({ currentSessionUser: () => Promise.resolve(user.current) }));
vi.mock("../../src/providers/firebase", () => ({ auth: {} }));
vi.mock("../../src/providers/identityFlows", () => ({ signInWithPassword: vi.fn() }));
const { authProvider } = await import("../../src/providers/authProvider");

afterEach(() => {
  setReader("subscriber");
  setLocale("en", { remember: false });
});

const VOICES = {
  en: {
    "enums.suspendReason.request": ["At your request", "At the customer's request"],
    "plans.current": ["Your plan", "Current plan"],
    "plans.choose": ["Choose this plan", "Move the line to this plan"],
    "actions.totalBack": ["You get back $12.83", "The customer gets back $12.83"],
    "addOns.short": [
      "Your balance ($0.00) is $10.00 short of this pass.",
      "The customer's balance ($0.00) is $10.00 short of this pass.",
    ],
    "resources.lines.preview.creditOnNextBill": [
      "The difference comes off your next bill.",
      "The difference comes off the customer's next bill.",
    ],
    "resources.lines.preview.chargeOnNextBill": [
      "The difference is charged on your next bill.",
      "The difference is charged on the customer's next bill.",
    ],
  },
  es: {
    "enums.suspendReason.request": ["A petición tuya", "A petición del cliente"],
    "plans.current": ["Tu plan", "Plan actual"],
    "plans.choose": ["Elegir este plan", "Pasar la línea a este plan"],
    "actions.totalBack": ["Te devolvemos $12.83", "Se le devuelven al cliente $12.83"],
    "addOns.short": [
      "A tu saldo ($0.00) le faltan $10.00 para este pase.",
      "Al saldo del cliente ($0.00) le faltan $10.00 para este pase.",
    ],
    "resources.lines.preview.creditOnNextBill": [
      "La diferencia se descuenta de tu próxima factura.",
      "La diferencia se descuenta de la próxima factura del cliente.",
    ],
    "resources.lines.preview.chargeOnNextBill": [
      "La diferencia se cobra en tu próxima factura.",
      "La diferencia se cobra en la próxima factura del cliente.",
    ],
  },
} as const;

describe("texts about the customer, in each reader's voice", () => {
  for (const [locale, texts] of Object.entries(VOICES) as [keyof typeof VOICES, (typeof VOICES)["en"]][])
    it(`speak to a subscriber and of the customer to staff (${locale})`, () => {
      setLocale(locale, { remember: false });
      const params = { amount: "$12.83", balance: "$0.00", short: "$10.00" };
      for (const [key, [subscriber, staff]] of Object.entries(texts)) {
        setReader("subscriber");
        expect(t(key, params)).toBe(subscriber);
        setReader("staff");
        expect(t(key, params)).toBe(staff);
      }
    });

  it("tell staff no 'confirm it is you' about restoring a lost line (staff are not asked)", () => {
    const key = "resources.lines.preview.suspendLostRestore";
    expect(t(key)).toBe("To restore it, you will be asked to confirm it is you.");
    for (const locale of ["en", "es"] as const) {
      setLocale(locale, { remember: false });
      setReader("staff");
      expect(t(key)).not.toMatch(/it is you|eres tú/);
      expect(t(key)).toMatch(/customer|cliente/);
    }
  });

  it("leave a key without a staff variant as it is", () => {
    setReader("staff");
    expect(t("resources.lines.preview.suspendStops")).toBe("Calls, texts and data stop on this line.");
  });

  it("name the stored reason in the reader's voice, the value stored unchanged", () => {
    const spec = linesResource.fields.suspendReason;
    const record = { suspendReason: "request" };
    expect(SELF_SUSPEND_REASONS).toContain("request");
    expect(fieldText("suspendReason", spec, record)).toBe("At your request");
    setReader("staff");
    expect(fieldText("suspendReason", spec, record)).toBe("At the customer's request");
    expect(record.suspendReason).toBe("request");
  });
});

describe("the reader", () => {
  it("is who signed in: staff for an agent or an admin, a subscriber otherwise", async () => {
    for (const [role, reader] of [
      ["agent", "staff"],
      ["admin", "staff"],
      ["subscriber", "subscriber"],
      [null, "subscriber"],
    ] as const) {
      user.current = { uid: "u", email: null, name: "u", role, operator: "ATT" };
      await authProvider.getIdentity();
      expect(getReader()).toBe(reader);
    }
    user.current = null;
    setReader("staff");
    await authProvider.getIdentity(); // signed out
    expect(getReader()).toBe("subscriber");
  });
});
