import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ordersResource, type Order } from "../../src/resources/orders";
import { renderWithRefine } from "../support/renderWithRefine";

// A port-in the exchange refused (issue 28 item 3): the subscriber's order page says why in words,
// on the timeline, and offers the declared resubmit action; once it completed it offers nothing.
const { default: OrderShowPage } = await import("../../src/pages/orders/OrderShowPage");

const at = "2026-11-20T10:00:00.000Z";
const refused: Order = {
  id: "77777777-7777-4777-8777-777777777778",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  lineId: "55555555-5555-4555-8555-555555555556",
  msisdn: "+12025559001",
  type: "port_in",
  state: "pending",
  effective: "now",
  scheduledFor: null,
  details: {
    portIn: { msisdn: "+12025550188", carrierAccount: "55501", zip: "20001", rejection: { code: "zip_mismatch" } },
    temporaryMsisdn: "+12025559001",
  },
  idDocumentFileId: null,
  timeline: [
    { state: "acknowledged", at, byRole: "subscriber", note: null },
    { state: "in_progress", at, byRole: "system", note: null },
    { state: "pending", at, byRole: "system", note: "orders.portIn.rejected.zip_mismatch" },
  ],
  requestedByRole: "subscriber",
  reason: null,
  createdAt: at,
  updatedAt: at,
};

function renderOrder(record: Order) {
  renderWithRefine(null, {
    identity: { uid: "demo-alex", role: "subscriber" },
    can: () => true,
    data: { getOne: vi.fn(() => Promise.resolve({ data: record })) },
    path: `/orders/show/${record.id}`,
    resources: [{ name: "orders", list: "/orders", show: "/orders/show/:id" }],
    routes: { "/orders/show/:id": <OrderShowPage resource={ordersResource} /> },
  });
}

describe("a refused port-in's order page", () => {
  it("says why in words and offers to correct and send it again", async () => {
    renderOrder(refused);
    expect(await screen.findByText("Your old carrier refused: the ZIP code does not match the account.")).toBeTruthy();
    expect(screen.getByTestId("order-summary").textContent).toContain("(202) 555-0188");
    expect(await screen.findByRole("button", { name: "Correct and send again" })).toBeTruthy();
  });

  it("once the number moved, offers nothing more", async () => {
    renderOrder({
      ...refused,
      state: "completed",
      details: { ...refused.details, portedAt: at },
      timeline: [...refused.timeline, { state: "completed", at, byRole: "system", note: "orders.portIn.accepted" }],
    });
    expect(await screen.findByText("Your old carrier released the number: it is now on this line.")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("order-summary").textContent).toContain("came over"));
    expect(screen.queryByRole("button", { name: "Correct and send again" })).toBeNull();
  });
});
