import { afterEach, describe, expect, it, vi } from "vitest";
import { getLocale, LOCALES, onLocaleChange, setLocale, translate } from "../../src/i18n";
import { en, type MessageKey } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { i18nProvider } from "../../src/providers/i18nProvider";
import { addResourceMessages } from "../../src/i18n/resourceMessages";

addResourceMessages();

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
const keys = Object.keys(en) as MessageKey[];

afterEach(() => setLocale("en"));

describe("dictionaries", () => {
  it("en has messages", () => {
    expect(keys.length).toBeGreaterThan(10);
    expect(LOCALES).toEqual(["en", "es"]);
  });

  it.each(keys)("es has %s as a non-empty string with the same placeholders", (key) => {
    expect(typeof en[key]).toBe("string");
    expect(en[key].trim()).not.toBe("");
    expect(typeof es[key]).toBe("string");
    expect(es[key].trim()).not.toBe("");
    expect(placeholders(es[key])).toEqual(placeholders(en[key]));
  });

  it("es has no keys that en lacks", () => {
    expect(Object.keys(es).filter((key) => !(key in en))).toEqual([]);
  });
});

describe("translate", () => {
  it("starts in English outside a browser", () => {
    expect(getLocale()).toBe("en");
    expect(translate("signIn.title")).toBe("Sign in");
  });

  it("fills {{placeholders}}", () => {
    expect(translate("app.name", { operator: "AT&T" })).toBe("AT&T self-service");
    expect(translate("dashboard.greeting", { name: "Alex" })).toBe("Hello, Alex");
    expect(translate("list.total", { count: 0 })).toBe("0 in total");
    expect(translate("list.error", { message: "Network down" })).toBe("This list could not be loaded: Network down");
  });

  it("leaves no placeholder behind when a value is missing", () => {
    expect(translate("dashboard.greeting", {})).toBe("Hello, ");
  });

  it("falls back for an unknown key to the given default, then to the key", () => {
    expect(translate("buttons.filter", undefined, "Filter")).toBe("Filter");
    expect(translate("buttons.filter", {}, "Filter")).toBe("Filter");
    expect(translate("buttons.filter")).toBe("buttons.filter");
  });

  it("fills placeholders in the default message too", () => {
    expect(
      translate("pages.error.info", { action: "edit" }, "You may have forgotten to add the {{action}} component"),
    ).toBe("You may have forgotten to add the edit component");
  });

  it("accepts translate(key, defaultMessage), as Refine calls it", () => {
    expect(translate("buttons.filter", "Filter")).toBe("Filter");
    expect(translate("buttons.filter", "Filter")).toBe("Filter");
    // A known key still wins over the default message.
    expect(translate("buttons.logout", "Logout")).toBe("Sign out");
    expect(translate("signIn.title", "Login")).toBe("Sign in");
  });

  it("translates in Spanish after setLocale('es'), with the same fallbacks", () => {
    setLocale("es");
    expect(getLocale()).toBe("es");
    expect(translate("signIn.email")).toBe("Correo electrónico");
    expect(translate("app.name", { operator: "AT&T" })).toBe("Autogestión AT&T");
    expect(translate("buttons.filter", "Filter")).toBe("Filter");
    expect(translate("buttons.filter")).toBe("buttons.filter");
  });
});

describe("setLocale and onLocaleChange", () => {
  it("notifies every listener with the new locale until it unsubscribes", () => {
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = onLocaleChange(first);
    const stopSecond = onLocaleChange(second);
    try {
      setLocale("es");
      expect(first).toHaveBeenCalledExactlyOnceWith("es");
      expect(second).toHaveBeenCalledExactlyOnceWith("es");
      stopFirst();
      setLocale("en");
      expect(first).toHaveBeenCalledTimes(1);
      expect(second).toHaveBeenLastCalledWith("en");
      expect(getLocale()).toBe("en");
    } finally {
      stopFirst();
      stopSecond();
    }
  });
});

describe("i18nProvider (what Refine calls)", () => {
  it("translate(key, options, defaultMessage) and translate(key, defaultMessage)", () => {
    expect(i18nProvider.translate("app.name", { operator: "AT&T" })).toBe("AT&T self-service");
    expect(i18nProvider.translate("buttons.filter", undefined, "Filter")).toBe("Filter");
    expect(i18nProvider.translate("buttons.filter", "Filter")).toBe("Filter");
    expect(i18nProvider.translate("buttons.filter")).toBe("buttons.filter");
  });

  it("changeLocale switches and getLocale reports it", async () => {
    const listener = vi.fn();
    const stop = onLocaleChange(listener);
    try {
      await i18nProvider.changeLocale("es");
      expect(i18nProvider.getLocale()).toBe("es");
      expect(listener).toHaveBeenCalledWith("es");
      expect(i18nProvider.translate("signIn.title")).toBe("Iniciar sesión");
    } finally {
      stop();
    }
  });
});

describe("i18nProvider: declared resources name themselves", () => {
  it("answers Refine's list-button and notification keys with the resource's label, in the current language", () => {
    expect(i18nProvider.translate("device-claims.titles.list", undefined, "Device-claims")).toBe("Device claims");
    expect(i18nProvider.translate("device-claims.device-claims", undefined, "Device-claim")).toBe("Device claims");
    setLocale("es");
    expect(i18nProvider.translate("device-claims.titles.list", undefined, "Reclamaciones de equipos")).toBe(
      "Reclamaciones de equipo",
    );
    expect(i18nProvider.translate("unknown.titles.list", undefined, "Unknowns")).toBe("Unknowns");
  });
});

describe("values, not only keys", () => {
  // The words a Spanish page must never fall back to, and the other way round (issue 25).
  const ENGLISH = /\b(required|at least|at most|characters|enter|must|invalid|fill this)\b/i;
  const SPANISH = /\b(obligatorio|al menos|como máximo|caracteres|indica|rellena|debe)\b/i;
  const validationKeys = keys.filter((key) => key.startsWith("validation.") || key.startsWith("form."));

  it.each(validationKeys)("%s is translated, in words of its own language", (key) => {
    expect(es[key]).not.toBe(en[key]);
    expect(es[key]).not.toMatch(ENGLISH);
    expect(en[key]).not.toMatch(SPANISH);
  });

  it("names each language in its own name, whatever the page's language", () => {
    for (const dictionary of [en, es]) {
      expect(dictionary["language.en"]).toBe("English");
      expect(dictionary["language.es"]).toBe("Español");
    }
  });
});

describe("issueText", () => {
  it("fills a declared key with the rule's bounds, as numbers and amounts in the language's format", async () => {
    const { issueText } = await import("../../src/i18n/issueText");
    expect(issueText({ message: "validation.atMostChars", maximum: 1000 }, "en")).toBe("at most 1,000 characters");
    expect(issueText({ message: "validation.atMostMoney", maximum: 50_000 }, "en")).toBe("at most $500.00");
    expect(issueText({ message: "validation.atLeastChars", minimum: 10 }, "es")).toBe("al menos 10 caracteres");
    expect(issueText({ message: "validation.atMostMoney", maximum: 50_000 }, "es")).toMatch(
      /^como máximo (\$500\.00|500[.,]00\s?US\$)$/,
    );
    expect(issueText({ message: "validation.kpiMaxDays", params: { max: 366 } }, "es")).toBe(
      "como máximo 366 días después del primero",
    );
  });

  it("leaves zod's own messages as zod wrote them, and zod follows the page's language", async () => {
    const { issueText } = await import("../../src/i18n/issueText");
    // What brings zod into the browser makes it follow the page (the sign-in page loads no zod).
    await import("../../src/config/zodInTheBrowser");
    const { z } = await import("zod");
    expect(issueText({ message: "Too small" }, "es")).toBe("Too small");
    setLocale("es");
    const spanish = z.string().safeParse(1).error!.issues[0]!.message;
    setLocale("en");
    const english = z.string().safeParse(1).error!.issues[0]!.message;
    expect(spanish).not.toBe(english);
    expect(spanish).toMatch(/inválid|esperaba/i);
    expect(english).toMatch(/invalid|expected/i);
  });
});
