import { fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { invoicesResource } from "../../src/resources/invoices";
import { renderWithRefine } from "../support/renderWithRefine";

// A subscriber's bill (issue 9 item 8): the show page and each list row offer its PDF, which the
// portal fetches with the viewer's token (GET /invoices/{id}/pdf needs it; a plain link would be a 401).
const downloadFromApi = vi.hoisted(() => vi.fn());
vi.mock("../../src/providers/download", () => ({ downloadFromApi }));
const { ResourceShowPage } = await import("../../src/pages/ResourceShowPage");
const { ResourceListPage } = await import("../../src/pages/ResourceListPage");

const usd = (amount: number) => ({ amount, currency: "USD" });
const bill = {
  id: "5a1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d",
  accountId: "7d1c7a52-0000-4000-8000-000000000002",
  accountName: "Alex Rivera",
  ownerUid: "demo-alex",
  number: "ATT-2026-10-0002",
  periodStart: "2026-10-01",
  periodEnd: "2026-10-31",
  items: [{ description: "Plan", amount: usd(5000) }],
  subtotal: usd(5000),
  tax: usd(413),
  taxRateBps: 825,
  total: usd(5413),
  status: "issued",
  issuedAt: "2026-11-01T05:00:00.000Z",
  dueOn: "2026-11-21",
  paidAt: null,
  voidReason: null,
  createdAt: "2026-11-01T05:00:00.000Z",
  updatedAt: "2026-11-01T05:00:00.000Z",
};

function renderAt(path: string) {
  renderWithRefine(null, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: {
      getOne: vi.fn(() => Promise.resolve({ data: bill })),
      getList: vi.fn(() => Promise.resolve({ data: [bill], total: 1 })),
    },
    path,
    resources: [{ name: "invoices", list: "/invoices", show: "/invoices/show/:id" }],
    routes: {
      "/invoices": <ResourceListPage resource={invoicesResource} />,
      "/invoices/show/:id": <ResourceShowPage resource={invoicesResource} />,
    },
  });
}

describe("a bill's PDF for the subscriber", () => {
  beforeEach(() => {
    downloadFromApi.mockReset().mockResolvedValue(undefined);
  });

  it("the bill's page downloads GET /invoices/{id}/pdf through the authenticated download helper", async () => {
    renderAt(`/invoices/show/${bill.id}`);
    fireEvent.click(await screen.findByRole("button", { name: /Download PDF/ }));
    await waitFor(() =>
      expect(downloadFromApi).toHaveBeenCalledWith(`/invoices/${bill.id}/pdf`, "ATT-2026-10-0002.pdf"),
    );
  });

  it("each row of the bills list offers its own PDF, named after its bill", async () => {
    renderAt("/invoices");
    fireEvent.click(await screen.findByRole("button", { name: "Download PDF: ATT-2026-10-0002" }));
    await waitFor(() =>
      expect(downloadFromApi).toHaveBeenCalledWith(`/invoices/${bill.id}/pdf`, "ATT-2026-10-0002.pdf"),
    );
  });

  it("says so when the download fails", async () => {
    downloadFromApi.mockImplementation(() =>
      Promise.reject(Object.assign(new Error("Not found"), { statusCode: 404 })),
    );
    renderAt(`/invoices/show/${bill.id}`);
    fireEvent.click(await screen.findByRole("button", { name: /Download PDF/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("The file could not be downloaded");
  });
});
