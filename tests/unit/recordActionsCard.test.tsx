import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ResourceShowPage } from "../../src/pages/ResourceShowPage";
import { contactRequestsResource } from "../../src/resources/contactRequests";
import { renderWithRefine } from "../support/renderWithRefine";
import { screenWidth } from "../support/screenWidth";

// On a phone a record's actions sit in a "What you can do" card below it. A subscriber's open
// contact request showed that card empty: its one action ("Mark as done") applies to an open request,
// but it is care's to run. The card comes only when the reader may run something.
const request = {
  id: "5a1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  topic: "billing",
  channel: "phone",
  message: "Please call me about my last bill.",
  status: "open",
  createdAt: "2026-12-01T06:00:00.000Z",
  updatedAt: "2026-12-01T06:00:00.000Z",
};

// A phone 360 px wide: no min-width breakpoint holds (md is false: the actions go to the card).
beforeEach(() => {
  vi.spyOn(window, "matchMedia").mockImplementation(screenWidth(360));
});
afterEach(() => vi.restoreAllMocks());

const renderAs = (role: "subscriber" | "agent") =>
  renderWithRefine(null, {
    identity: { uid: role === "subscriber" ? "demo-alex" : "demo-agent", role },
    path: `/contact-requests/show/${request.id}`,
    resources: [{ name: "contact-requests", list: "/contact-requests", show: "/contact-requests/show/:id" }],
    routes: { "/contact-requests/show/:id": <ResourceShowPage resource={contactRequestsResource} /> },
    data: { getOne: vi.fn(() => Promise.resolve({ data: request })) },
  });

describe("a record's actions on a phone", () => {
  it("a subscriber gets no card of actions they may not run, and the record's title is the page's h1", async () => {
    renderAs("subscriber");
    await screen.findByRole("heading", { level: 1, name: /Please call me about my last bill/ });
    expect(screen.queryByText("What you can do")).toBeNull();
  });

  it("care gets the card with its action", async () => {
    renderAs("agent");
    await screen.findByText("What you can do");
    await screen.findByRole("button", { name: "Mark as done" });
  });
});
