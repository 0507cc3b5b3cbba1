import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { paymentMethodsResource } from "../../src/resources/paymentMethods";
import { invoicesResource } from "../../src/resources/invoices";
import { usageRecordsResource } from "../../src/resources/usageRecords";
import { contactRequestsResource } from "../../src/resources/contactRequests";
import type { DeclaredResource } from "../../src/resources/define";
import { renderWithRefine } from "../support/renderWithRefine";

const { ResourceListPage } = await import("../../src/pages/ResourceListPage");

// A subscriber's lists on a phone read as sentences of their language (the declarations'
// `subscriberCard`), with what can be done there as buttons: no field labels, ids or enum values.
afterEach(() => setLocale("en", { remember: false }));

const usd = (amount: number) => ({ amount, currency: "USD" });
const card = {
  id: "0f6c7a52-0000-4000-8000-000000000001",
  ownerUid: "demo-alex",
  type: "card",
  brand: "visa",
  bankName: null,
  last4: "4242",
  expMonth: 11,
  expYear: 2039,
  isDefault: true,
  createdAt: "2026-11-01T05:00:00.000Z",
};
const bank = {
  ...card,
  id: "0f6c7a52-0000-4000-8000-000000000002",
  type: "bank_account",
  brand: null,
  bankName: "Chase",
  last4: "6789",
  expMonth: null,
  expYear: null,
  isDefault: false,
};
const overdue = {
  id: "5a1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  accountName: "Alex Rivera",
  ownerUid: "demo-alex",
  number: "ATT-2026-10-0002",
  periodStart: "2026-10-01",
  periodEnd: "2026-10-31",
  total: usd(5413),
  amountDue: usd(5413),
  status: "overdue",
  issuedAt: "2026-11-01T05:00:00.000Z",
  dueOn: "2026-11-21",
};
const call = {
  id: "cdr-1",
  lineId: "7d1c7a52-0000-4000-8000-000000000009",
  msisdn: "+12025550101",
  type: "voice",
  quantity: 95,
  unit: "seconds",
  roaming: true,
  roamingZone: "europe",
  startedAt: "2026-11-20T14:05:00.000Z",
};

function renderList(resource: DeclaredResource, records: Record<string, unknown>[]) {
  const deleteOne = vi.fn(() => Promise.resolve({ data: {} }));
  renderWithRefine(null, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: { getList: vi.fn(() => Promise.resolve({ data: records, total: records.length })), deleteOne },
    path: `/${resource.name}`,
    resources: [{ name: resource.name, list: `/${resource.name}`, show: `/${resource.name}/show/:id` }],
    routes: { [`/${resource.name}`]: <ResourceListPage resource={resource} /> },
  });
  return { deleteOne };
}

describe("a subscriber's cards", () => {
  it("payment methods: what each is in words, its expiry, which is the default, and Make default / Remove", async () => {
    const { deleteOne } = renderList(paymentMethodsResource, [card, bank]);
    const visa = (await screen.findByRole("link", { name: "Visa ending in 4242" })).closest(".ant-card") as HTMLElement;
    expect(visa.textContent).toContain("Expires 11/2039");
    expect(visa.textContent).toContain("Your default: bills you pay and automatic payments use it.");
    // The default card is the default already: no Make default, but it can be removed.
    expect(within(visa).queryByRole("button", { name: "Make default" })).toBeNull();
    await within(visa).findByRole("button", { name: /Remove/ });
    const chase = screen
      .getByRole("link", { name: "Chase account ending in 6789" })
      .closest(".ant-card") as HTMLElement;
    await within(chase).findByRole("button", { name: "Make default" });
    expect(chase.textContent).not.toContain("Expires");
    // No field labels beside values, no enum values.
    const page = document.body.textContent ?? "";
    for (const staffWord of ["Expiry month", "Ending in", "Kind", "bank_account", "visa"])
      expect(page).not.toContain(staffWord);

    // Remove asks first, naming the card, then deletes that one.
    fireEvent.click(within(visa).getByRole("button", { name: /Remove/ }));
    const confirm = (await screen.findByText("Remove Visa ending in 4242?")).closest(".ant-popover") as HTMLElement;
    fireEvent.click(within(confirm).getByRole("button", { name: "Remove" }));
    await waitFor(() =>
      expect(deleteOne).toHaveBeenCalledWith(expect.objectContaining({ resource: "payment-methods", id: card.id })),
    );
  });

  it("bills: the amount, the period and what to do, by status", async () => {
    renderList(invoicesResource, [overdue]);
    await screen.findByRole("link", { name: "Bill of $54.13" });
    const text = document.body.textContent ?? "";
    expect(text).toContain("For Oct 1, 2026 to Oct 31, 2026");
    expect(text).toContain("Overdue: $54.13 was due on Nov 21, 2026. Open the bill to pay it.");
    expect(text).not.toContain("Period to");
  });

  it("usage history, in Spanish: what was used, when, on which number, and where abroad", async () => {
    setLocale("es", { remember: false });
    renderList(usageRecordsResource, [call]);
    await screen.findByRole("link", { name: "Una llamada de 95 segundos" });
    const text = document.body.textContent ?? "";
    expect(text).toContain("(202) 555-0101");
    expect(text).toContain("Usado en el extranjero: Europa");
    expect(text).not.toMatch(/Cantidad|Unidad|seconds|europe/);
  });

  it("a request to be contacted: its topic, the person's words, and what happens next by the way asked", async () => {
    const asked = {
      id: "9b1c7a52-0000-4000-8000-000000000003",
      topic: "plan",
      channel: "email",
      message: "Is there a cheaper plan with more data?",
      status: "open",
      createdAt: "2026-11-30T15:00:00.000Z",
      updatedAt: "2026-11-30T15:00:00.000Z",
    };
    renderList(contactRequestsResource, [asked]);
    await screen.findByRole("link", { name: "My plan" });
    const text = document.body.textContent ?? "";
    expect(text).toContain("“Is there a cheaper plan with more data?”");
    expect(text).toMatch(/Asked Nov 30, 2026, .*: we will email you\./);
    expect(text).not.toMatch(/Reach me by|Open|email\b(?! you)/);
  });

  it("an empty list says what will come there and how, not 'Nothing to show here.'", async () => {
    renderList(paymentMethodsResource, []);
    await screen.findByText(
      "No saved cards or bank accounts yet. One you add when you pay a bill is kept here for next time.",
    );
    expect(document.body.textContent).not.toContain("Nothing to show here.");
  });
});
