import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { ResourceListPage } from "../../src/pages/ResourceListPage";
import { ticketsResource } from "../../src/resources/tickets";
import { formatRoughCount } from "../../src/components/format";
import { renderWithRefine } from "../support/renderWithRefine";
import { screenWidth } from "../support/screenWidth";

// Issue 30: past 10,000 matches a list's total is the database's estimate; the table says "about"
// and rounds it as people say a large number, in the page's language.
const NOW = "2026-11-27T10:00:00.000Z";
const ticket = {
  id: "5a1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  accountName: "Alex Rivera",
  category: "billing",
  subject: "A charge I do not recognise",
  message: "Please check.",
  attachmentIds: [],
  attachments: [],
  status: "acknowledged",
  priority: "normal",
  assigned: false,
  slaDueAt: NOW,
  messages: [],
  lastMessageAt: NOW,
  createdByRole: "subscriber",
  createdAt: NOW,
  updatedAt: NOW,
};

const listWith = (answer: { total: number; totalIsEstimate?: boolean }) =>
  renderWithRefine(null, {
    identity: { uid: "demo-agent", role: "agent" },
    data: { getList: vi.fn(() => Promise.resolve({ data: [ticket], ...answer })) },
    path: "/tickets",
    resources: [{ name: "tickets", list: "/tickets", show: "/tickets/show/:id" }],
    routes: { "/tickets": <ResourceListPage resource={ticketsResource} /> },
  });

// A desk's width: the table with its pagination and total (below 768 px the list is cards).
beforeEach(() => {
  vi.spyOn(window, "matchMedia").mockImplementation(screenWidth(1280));
});
afterEach(() => {
  vi.restoreAllMocks();
  setLocale("en");
});

describe("a list's total", () => {
  it("an estimate reads as about so many, rounded", async () => {
    listWith({ total: 1_234_567, totalIsEstimate: true });
    expect(await screen.findByText("about 1.2 million in total")).toBeTruthy();
  });

  it("an exact total reads as it is", async () => {
    listWith({ total: 9_876, totalIsEstimate: false });
    expect(await screen.findByText(/^9,?876 in total$/)).toBeTruthy();
  });

  it("rounds in the page's language", () => {
    setLocale("es");
    // US Spanish (the portal's es-US) writes the decimal point as US English does.
    expect(formatRoughCount(1_234_567)).toMatch(/^1[.,]2 millones$/);
    expect(formatRoughCount(30_412)).toBe("30 mil");
    setLocale("en");
    expect(formatRoughCount(30_412)).toBe("30 thousand");
  });
});
