import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import { QuoteView, type QuoteData } from "../../src/components/actions/QuoteView";
import { PlanCards } from "../../src/components/plans/PlanCards";
import { setLocale, setReader, type Locale } from "../../src/i18n";
import type { ActionSpec } from "../../src/resources/define";
import { linesResource } from "../../src/resources/lines";
import type { Plan } from "../../src/resources/plans";
import { renderWithRefine } from "../support/renderWithRefine";
import { staffLine } from "./fixtures/staffLine";

// A staff walk: a care agent on a subscriber's line read the subscriber's own words in the suspend
// dialog, the plan change's quote and the plan cards. Staff now read of "the customer"; the
// subscriber's pages still speak to them. (The reader is set from the signed-in role at getIdentity,
// tests/unit/staffVoice.test.ts; here each test sets it as that would.)
afterEach(() => {
  setReader("subscriber");
  setLocale("en", { remember: false });
});

const READERS = [
  { role: "agent", reader: "staff" },
  { role: "subscriber", reader: "subscriber" },
] as const;

describe("the suspend dialog's reasons", () => {
  const suspend = linesResource.actions!.suspend as ActionSpec;
  const expected = {
    en: { staff: "At the customer's request", subscriber: "At your request" },
    es: { staff: "A petición del cliente", subscriber: "A petición tuya" },
  };
  for (const locale of ["en", "es"] as const)
    for (const { role, reader } of READERS)
      it(`offer "request" in the ${reader}'s voice, sending the stored value (${locale})`, async () => {
        setLocale(locale, { remember: false });
        setReader(reader);
        const custom = vi.fn(() => Promise.resolve({ data: suspendLost }));
        renderWithRefine(
          <ActionDialog
            resource={linesResource}
            name="suspend"
            action={suspend}
            record={staffLine()}
            open
            onClose={() => {}}
          />,
          { identity: { uid: "u", role }, data: { custom } },
        );
        const user = userEvent.setup({ delay: null });
        await user.click(await screen.findByRole("combobox", { name: /Suspension reason|Motivo/ }));
        const other = reader === "staff" ? "subscriber" : "staff";
        await user.click(await screen.findByTitle(expected[locale][reader]));
        expect(screen.queryByTitle(expected[locale][other])).toBeNull();
        if (reader === "staff")
          fireEvent.change(screen.getByRole("textbox"), { target: { value: "Asked on the phone" } });
        await user.click(screen.getByRole("button", { name: locale === "en" ? "Review" : "Revisar" }));
        // The answer sent is the stored value, whoever reads it.
        await waitFor(() => expect(custom).toHaveBeenCalled());
        expect(custom.mock.calls[0]).toMatchObject([{ payload: { suspendReason: "request" } }]);
      });
});

/** The server's quote of a postpaid plan change down a tier: a credit, off the next bill. */
const downgrade: QuoteData = {
  summary: "resources.lines.preview.changePlanNow",
  params: { msisdn: "+12025550102", plan: "Postpaid Starter 10 GB" },
  lines: [
    {
      label: "resources.lines.preview.creditOldPlan",
      params: { plan: "Postpaid Extra 50 GB", days: 11, cycleDays: 30 },
      amount: { amount: -2383, currency: "USD" },
    },
    {
      label: "resources.lines.preview.chargeNewPlan",
      params: { plan: "Postpaid Starter 10 GB", days: 11, cycleDays: 30 },
      amount: { amount: 1100, currency: "USD" },
    },
    { label: "resources.lines.preview.creditOnNextBill" },
  ],
  total: { amount: -1283, currency: "USD" },
};

const suspendLost: QuoteData = {
  summary: "resources.lines.preview.suspend",
  params: { msisdn: "+12025550102" },
  lines: [
    { label: "resources.lines.preview.suspendStops" },
    { label: "resources.lines.preview.suspendLostRestore" },
    { label: "resources.lines.preview.noCharge" },
  ],
  total: null,
};

describe("an action's review", () => {
  const cases: [Locale, "staff" | "subscriber", string[], RegExp][] = [
    ["en", "staff", ["The difference comes off the customer's next bill.", "The customer gets back $12.83"], /your/i],
    ["en", "subscriber", ["The difference comes off your next bill.", "You get back $12.83"], /customer/i],
    [
      "es",
      "staff",
      ["La diferencia se descuenta de la próxima factura del cliente.", "Se le devuelven al cliente $12.83"],
      /\btu\b|\bte\b/i,
    ],
    ["es", "subscriber", ["La diferencia se descuenta de tu próxima factura.", "Te devolvemos $12.83"], /cliente/],
  ];
  for (const [locale, reader, texts, notIn] of cases)
    it(`of a plan change says who gets the credit, to the ${reader} (${locale})`, () => {
      setLocale(locale, { remember: false });
      setReader(reader);
      render(<QuoteView quote={downgrade} />);
      const quote = screen.getByTestId("action-quote");
      for (const text of texts) expect(within(quote).getByText(text)).toBeTruthy();
      expect(quote.textContent).not.toMatch(notIn);
    });

  it("of suspending a lost line asks staff for no 'confirm it is you'; the subscriber is told", () => {
    setReader("staff");
    const { unmount } = render(<QuoteView quote={suspendLost} />);
    expect(screen.getByTestId("action-quote").textContent).not.toContain("confirm it is you");
    expect(screen.getByText(/If the customer restores it, they are asked to confirm their identity/)).toBeTruthy();
    unmount();
    setReader("subscriber");
    render(<QuoteView quote={suspendLost} />);
    expect(screen.getByText("To restore it, you will be asked to confirm it is you.")).toBeTruthy();
  });
});

describe("the plan cards", () => {
  const plan = (id: string, name: string): Plan => ({ id, ...planFor(name) });
  const plans = [plan("a", "Postpaid Starter 10 GB"), plan("b", "Postpaid Extra 50 GB")];
  const cards = () =>
    render(
      <PlanCards
        plans={plans}
        currentPlanId="b"
        offer={() => null} // what choosing does is the page's (PlanCatalog, Shop)
      />,
    );

  for (const [locale, staff, subscriber] of [
    ["en", "Current plan", "Your plan"],
    ["es", "Plan actual", "Tu plan"],
  ] as const)
    it(`mark the line's plan "${staff}" for staff and "${subscriber}" for its subscriber (${locale})`, () => {
      setLocale(locale, { remember: false });
      setReader("staff");
      const { unmount } = cards();
      expect(screen.getByText(staff)).toBeTruthy();
      expect(screen.queryByText(subscriber)).toBeNull();
      unmount();
      setReader("subscriber");
      cards();
      expect(screen.getByText(subscriber)).toBeTruthy();
    });
});

describe("staff's plan catalog on a line's page", () => {
  it("offers to move the line to a plan, not 'Choose this plan'", async () => {
    setReader("staff");
    const { PlanCatalog } = await import("../../src/components/plans/PlanCatalog");
    const line = staffLine();
    renderWithRefine(<PlanCatalog lineId={line.id} />, {
      identity: { uid: "care", role: "agent" },
      data: {
        getOne: vi.fn(() => Promise.resolve({ data: line })),
        getList: vi.fn(() =>
          Promise.resolve({
            data: [
              { ...planFor("Postpaid Starter 10 GB"), id: "5a1c7a52-0000-4000-8000-000000000010" },
              { ...planFor(line.planName), id: line.planId },
            ],
            total: 2,
          }),
        ),
      },
    });
    expect(await screen.findByRole("heading", { name: "Plans this line can move to" })).toBeTruthy();
    const button = await screen.findByRole("button", { name: "Move the line to Postpaid Starter 10 GB" });
    expect(button.textContent).toBe("Move the line to this plan");
    expect(screen.getByText("Current plan")).toBeTruthy();
    expect(screen.queryByText(/Your plan|Choose/)).toBeNull();
  });
});

function planFor(name: string): Omit<Plan, "id"> {
  return {
    code: name.toUpperCase().replace(/\W+/g, "_"),
    name,
    kind: "postpaid",
    status: "active",
    price: { amount: 4500, currency: "USD" },
    period: "month",
    dataMb: 10_240,
    voiceMinutes: null,
    sms: null,
    features: [],
    translations: {},
    overage: null,
    sharing: "none",
    pendingPrice: null,
    priceChangedAt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}
