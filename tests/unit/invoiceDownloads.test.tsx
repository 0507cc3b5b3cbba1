import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { Refine, type AuthProvider, type DataProvider } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntdApp } from "antd";
import { MemoryRouter, Route, Routes } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import "../../src/resources"; // registers the declarations' messages
import { invoicesResource } from "../../src/resources/invoices";
import { i18nProvider } from "../../src/providers/i18nProvider";

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
  const dataProvider = {
    getApiUrl: () => "/api/v1",
    getOne: vi.fn(async () => ({ data: bill })),
    getList: vi.fn(async () => ({ data: [bill], total: 1 })),
    create: vi.fn(),
    update: vi.fn(),
    deleteOne: vi.fn(),
  } as unknown as DataProvider;
  const authProvider: AuthProvider = {
    login: async () => ({ success: true }),
    logout: async () => ({ success: true }),
    check: async () => ({ authenticated: true }),
    onError: async () => ({}),
    getIdentity: async () => ({ uid: "demo-alex", role: "subscriber", operator: "ATT" }),
  };
  render(
    <MemoryRouter initialEntries={[path]}>
      <AntdApp>
        <Refine
          dataProvider={dataProvider}
          authProvider={authProvider}
          routerProvider={routerProvider}
          i18nProvider={i18nProvider}
          resources={[{ name: "invoices", list: "/invoices", show: "/invoices/show/:id" }]}
          options={{ disableTelemetry: true }}
        >
          <Routes>
            <Route path="/invoices" element={<ResourceListPage resource={invoicesResource} />} />
            <Route path="/invoices/show/:id" element={<ResourceShowPage resource={invoicesResource} />} />
          </Routes>
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
}

describe("a bill's PDF for the subscriber", () => {
  beforeEach(() => {
    downloadFromApi.mockReset().mockResolvedValue(undefined);
  });

  it("the bill's page downloads GET /invoices/{id}/pdf through the authenticated download helper", async () => {
    renderAt(`/invoices/show/${bill.id}`);
    fireEvent.click(await screen.findByRole("button", { name: /Download PDF/ }));
    await waitFor(() => expect(downloadFromApi).toHaveBeenCalledWith(`/invoices/${bill.id}/pdf`, "ATT-2026-10-0002.pdf"));
  });

  it("each row of the bills list offers its own PDF, named after its bill", async () => {
    renderAt("/invoices");
    fireEvent.click(await screen.findByRole("button", { name: "Download PDF: ATT-2026-10-0002" }));
    await waitFor(() => expect(downloadFromApi).toHaveBeenCalledWith(`/invoices/${bill.id}/pdf`, "ATT-2026-10-0002.pdf"));
  });

  it("says so when the download fails", async () => {
    downloadFromApi.mockImplementation(async () => {
      throw Object.assign(new Error("Not found"), { statusCode: 404 });
    });
    renderAt(`/invoices/show/${bill.id}`);
    fireEvent.click(await screen.findByRole("button", { name: /Download PDF/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("The file could not be downloaded");
  });
});
