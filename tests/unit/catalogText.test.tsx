import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DataProvider } from "@refinedev/core";
import { ResourceFormPage } from "../../src/pages/ResourceFormPage";
import { plansResource } from "../../src/resources/plans";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlanCatalog } from "../../src/components/plans/PlanCatalog";
import { setLocale, type Locale } from "../../src/i18n";
import { catalogFeatures, catalogName } from "../../src/i18n/catalogText";
import type { Plan } from "../../src/resources/plans";
import { renderWithRefine } from "../support/renderWithRefine";
import { recordTitleText } from "../../src/components/fieldText";
import { linesResource } from "../../src/resources/lines";

// Catalog content in the page's language (issue 25, item 3): a subscriber reading the Shop in Spanish
// sees the plans' Spanish names and features, in English the operator's default text, and a plan
// nobody translated in English either way.

const LINE_ID = "11111111-1111-4111-8111-111111111111";
const line = {
  id: LINE_ID,
  accountType: "prepaid",
  planId: "99999999-9999-4999-8999-999999999999",
  planName: "Prepaid Unlimited",
  planTranslations: {},
  msisdn: "+12025550101",
  status: "active",
};

const plan = (id: string, name: string, features: string[], translations: Plan["translations"]): Plan => ({
  id,
  code: name.toUpperCase().replace(/\W+/g, "_"),
  name,
  kind: "prepaid",
  status: "active",
  price: { amount: 3500, currency: "USD" },
  period: "month",
  dataMb: 15_360,
  voiceMinutes: null,
  sms: null,
  features,
  translations,
  overage: null,
  sharing: "none",
  pendingPrice: null,
  priceChangedAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

const translated = plan(
  "22222222-2222-4222-8222-222222222222",
  "Prepaid 15 GB",
  ["Unlimited talk & text", "Mobile hotspot"],
  { es: { name: "Prepago 15 GB", features: ["Llamadas y mensajes ilimitados", "Punto de acceso móvil"] } },
);
const untranslated = plan("33333333-3333-4333-8333-333333333333", "Prepaid 5 GB", ["Talk & text in US"], {});

async function shopCards(locale: Locale) {
  setLocale(locale, { remember: false });
  renderWithRefine(<PlanCatalog lineId={LINE_ID} />, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: {
      getOne: vi.fn(() => Promise.resolve({ data: line })),
      getList: vi.fn(() => Promise.resolve({ data: [translated, untranslated], total: 2 })),
    },
  });
  const cards = await screen.findAllByTestId("plan-card");
  expect(cards).toHaveLength(2);
  return cards.map((card) => within(card));
}

afterEach(() => {
  cleanup();
  setLocale("en", { remember: false });
});

describe("the Shop's plan cards", () => {
  it("show the Spanish name and features on a Spanish page, and English where a plan has no translation", async () => {
    const [first, second] = await shopCards("es");
    expect(first!.getByText("Prepago 15 GB")).toBeTruthy();
    expect(first!.getByText("Llamadas y mensajes ilimitados")).toBeTruthy();
    expect(first!.getByText("Punto de acceso móvil")).toBeTruthy();
    expect(first!.queryByText("Prepaid 15 GB")).toBeNull();
    expect(first!.queryByText("Mobile hotspot")).toBeNull();
    expect(second!.getByText("Prepaid 5 GB")).toBeTruthy();
    expect(second!.getByText("Talk & text in US")).toBeTruthy();
  });

  it("show the operator's English text on an English page", async () => {
    const [first] = await shopCards("en");
    expect(first!.getByText("Prepaid 15 GB")).toBeTruthy();
    expect(first!.getByText("Mobile hotspot")).toBeTruthy();
    expect(first!.queryByText("Prepago 15 GB")).toBeNull();
    expect(first!.getByRole("button", { name: "Choose Prepaid 15 GB" })).toBeTruthy();
  });
});

describe("a shared plan's card (issue 28)", () => {
  const shared: Plan = {
    ...plan("44444444-4444-4444-8444-444444444444", "Family Share 30 GB", [], {}),
    price: { amount: 3000, currency: "USD" },
    dataMb: 30 * 1024,
    sharing: "pool",
  };
  for (const [locale, price, words] of [
    ["en", "$30.00 per line/month", "30 GB shared by every line of the account"],
    ["es", "por línea/mes", "30 GB compartidos por todas las líneas de la cuenta"],
  ] as const)
    it(`says the price is per line and the data is shared (${locale})`, async () => {
      setLocale(locale, { remember: false });
      renderWithRefine(<PlanCatalog lineId={LINE_ID} />, {
        identity: { uid: "demo-alex", role: "subscriber" },
        data: {
          getOne: vi.fn(() => Promise.resolve({ data: line })),
          getList: vi.fn(() => Promise.resolve({ data: [shared], total: 1 })),
        },
      });
      const card = within(await screen.findByTestId("plan-card"));
      expect(card.getByTestId("plan-price").textContent).toContain(price);
      expect(card.getByTestId("plan-shared").textContent).toContain(words);
    });
});

describe("catalogName and catalogFeatures", () => {
  it("fall back to the default text for a blank name or an empty feature list", () => {
    const item = { name: "1 GB data pass", features: ["Data"], translations: { es: { name: "  ", features: [] } } };
    expect(catalogName(item, "es")).toBe("1 GB data pass");
    expect(catalogFeatures(item, "es")).toEqual(["Data"]);
    expect(catalogName({ name: "1 GB data pass", translations: { es: { name: "Pase de 1 GB" } } }, "es")).toBe(
      "Pase de 1 GB",
    );
    expect(catalogName({ name: "1 GB data pass" }, "es")).toBe("1 GB data pass");
  });
});

describe("a catalog item as a record's title (a plan in the change-plan dialog's picker)", () => {
  it("is named in the page's language; a record of a resource without translations keeps its title field", () => {
    setLocale("es", { remember: false });
    expect(recordTitleText(plansResource, translated)).toBe("Prepago 15 GB");
    expect(recordTitleText(plansResource, untranslated)).toBe("Prepaid 5 GB");
    expect(recordTitleText(linesResource, line)).toBe("(202) 555-0101");
    setLocale("en", { remember: false });
    expect(recordTitleText(plansResource, translated)).toBe("Prepaid 15 GB");
  });
});

describe("the plan form (catalog management)", () => {
  it("edits the Spanish name and features beside the English ones and sends them as translations.es", async () => {
    const update = vi.fn(() => Promise.resolve({ data: untranslated }));
    renderWithRefine(null, {
      identity: { uid: "demo-admin", role: "admin" },
      data: {
        getOne: vi.fn(() => Promise.resolve({ data: untranslated })),
        update: update as unknown as DataProvider["update"],
      },
      path: `/plans/edit/${untranslated.id}`,
      resources: [{ name: "plans", list: "/plans", show: "/plans/show/:id", edit: "/plans/edit/:id" }],
      routes: {
        "/plans/edit/:id": <ResourceFormPage resource={plansResource} action="edit" />,
        "/plans/show/:id": <p>record page</p>,
      },
    });
    const user = userEvent.setup({ delay: null });
    // The form mounts again once the record has loaded into it.
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>("Name").value).toBe("Prepaid 5 GB"));
    const name = screen.getByLabelText("Name in Spanish");
    await user.type(name, "Prepago 5 GB");
    await user.type(screen.getByLabelText("Included, in Spanish"), "Llamadas y mensajes en EE. UU.{enter}");
    await user.click(screen.getByRole("button", { name: /Save$/ }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    const sent = (update.mock.calls[0] as unknown as [{ variables: Record<string, unknown> }])[0].variables;
    expect(sent.translations).toEqual({ es: { name: "Prepago 5 GB", features: ["Llamadas y mensajes en EE. UU."] } });
    expect(sent.name).toBe("Prepaid 5 GB");
  }, 60_000); // a whole form typed into: slow on a loaded machine
});
