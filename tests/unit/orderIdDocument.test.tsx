import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ordersResource, type Order } from "../../src/resources/orders";
import { renderWithRefine } from "../support/renderWithRefine";

// An eSIM transfer's order keeps the holder's ID document (issue 11): its page offers it for
// download with the viewer's token, from /files/{id}/content (the holder's and staff's to have).
const downloadFromApi = vi.hoisted(() => vi.fn());
vi.mock("../../src/providers/download", () => ({ downloadFromApi }));
const { ResourceShowPage } = await import("../../src/pages/ResourceShowPage");

const FILE = "66666666-6666-4666-8666-666666666666";
const order: Order = {
  id: "77777777-7777-4777-8777-777777777777",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  lineId: "55555555-5555-4555-8555-555555555555",
  msisdn: "+12025550102",
  type: "sim_swap",
  state: "completed",
  effective: "now",
  scheduledFor: null,
  details: { simType: "esim", idDocumentFileId: FILE },
  idDocumentFileId: FILE,
  timeline: [{ state: "completed", at: "2026-11-20T10:00:00.000Z", byRole: "agent", note: null }],
  requestedByRole: "agent",
  reason: "new phone, customer in store",
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
};

function renderOrder(record: Order) {
  renderWithRefine(null, {
    identity: { uid: "demo-agent", role: "agent" },
    data: { getOne: vi.fn(() => Promise.resolve({ data: record })) },
    path: `/orders/show/${record.id}`,
    resources: [{ name: "orders", list: "/orders", show: "/orders/show/:id" }],
    routes: { "/orders/show/:id": <ResourceShowPage resource={ordersResource} /> },
  });
}

describe("an order's ID document", () => {
  beforeEach(() => downloadFromApi.mockReset().mockResolvedValue(undefined));

  it("is downloaded from the file's content with the viewer's token", async () => {
    renderOrder(order);
    await userEvent.setup({ delay: null }).click(await screen.findByRole("button", { name: "Download ID document" }));
    expect(downloadFromApi).toHaveBeenCalledWith(`/files/${FILE}/content`, "ID document");
  });

  it("says why when the download is refused", async () => {
    downloadFromApi.mockRejectedValueOnce(new Error("No such file."));
    renderOrder(order);
    await userEvent.setup({ delay: null }).click(await screen.findByRole("button", { name: "Download ID document" }));
    expect((await screen.findByRole("alert")).textContent).toBe("No such file.");
  });

  it("an order made without one offers nothing to download", async () => {
    renderOrder({ ...order, type: "suspend", details: { suspendReason: "lost" }, idDocumentFileId: null });
    await waitFor(() => expect(screen.getAllByText("Suspension").length).toBeGreaterThan(0));
    expect(screen.getByText("ID document")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Download/ })).toBeNull();
  });
});
