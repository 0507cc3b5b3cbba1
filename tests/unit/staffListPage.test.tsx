import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { ResourceListPage } from "../../src/pages/ResourceListPage";
import { plansResource } from "../../src/resources/plans";
import { voucherBatchesResource } from "../../src/resources/voucherBatches";
import { renderWithRefine } from "../support/renderWithRefine";
import { screenWidth } from "../support/screenWidth";

// A staff table's icon-only row buttons are named with their row: a screen reader heard "edit" on
// every row of the plans, and in English on a Spanish page.
const NOW = "2026-11-27T10:00:00.000Z";
const plan = (id: string, name: string) => ({
  id,
  code: name.toUpperCase().replaceAll(/\W/g, "_"),
  name,
  kind: "prepaid",
  status: "active",
  price: { amount: 1500, currency: "USD" },
  dataMb: 5120,
  voiceMinutes: null,
  sms: null,
  features: [],
  overage: { data: null, voice: null, sms: null },
  translations: {},
  createdAt: NOW,
  updatedAt: NOW,
});
const PLANS = [
  plan("11111111-1111-4111-8111-111111111111", "Prepaid 5 GB"),
  plan("22222222-2222-4222-8222-222222222222", "Prepaid 15 GB"),
];

const renderPlans = () =>
  renderWithRefine(null, {
    identity: { uid: "demo-admin", role: "admin" },
    data: { getList: vi.fn(() => Promise.resolve({ data: PLANS, total: PLANS.length })) },
    path: "/plans",
    resources: [{ name: "plans", list: "/plans", show: "/plans/show/:id", edit: "/plans/edit/:id" }],
    routes: { "/plans": <ResourceListPage resource={plansResource} /> },
  });

// A desk's width: the table (below 768 px the list is cards).
beforeEach(() => {
  vi.spyOn(window, "matchMedia").mockImplementation(screenWidth(1280));
});
afterEach(() => {
  vi.restoreAllMocks();
  setLocale("en", { remember: false });
});

describe("a staff table's row buttons", () => {
  it("name the row they act on", async () => {
    renderPlans();
    await screen.findByRole("button", { name: "Edit Prepaid 5 GB" });
    screen.getByRole("button", { name: "Edit Prepaid 15 GB" });
    expect(screen.queryAllByRole("button", { name: /^edit$/i })).toEqual([]);
    // Refine puts the button inside a link: the link is the keyboard's one stop (Chromium names it by the button).
    const edit = screen.getByRole("button", { name: "Edit Prepaid 5 GB" });
    expect(edit.tabIndex).toBe(-1);
    expect(edit.closest("a")?.getAttribute("href")).toBe("/plans/edit/11111111-1111-4111-8111-111111111111");
  });

  it("sit under the page's one h1, its title", async () => {
    renderPlans();
    await screen.findByRole("heading", { level: 1, name: "Plans" });
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
  });

  it("in the page's language", async () => {
    setLocale("es", { remember: false });
    renderPlans();
    await screen.findByRole("button", { name: "Editar Prepaid 5 GB" });
  });
});

describe("a staff table's date range filter", () => {
  it("names where the range starts and where it ends", async () => {
    renderWithRefine(null, {
      identity: { uid: "demo-admin", role: "admin" },
      data: { getList: vi.fn(() => Promise.resolve({ data: [], total: 0 })) },
      path: "/voucher-batches",
      resources: [{ name: "voucher-batches", list: "/voucher-batches", show: "/voucher-batches/show/:id" }],
      routes: { "/voucher-batches": <ResourceListPage resource={voucherBatchesResource} /> },
    });
    const label = (await screen.findAllByPlaceholderText(/: from$/))[0]!.getAttribute("placeholder")!;
    const field = label.replace(/: from$/, "");
    screen.getByPlaceholderText(`${field}: to`);
  });
});
