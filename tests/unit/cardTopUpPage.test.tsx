import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "antd";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { applyFeatureFlags } from "../../src/providers/remoteConfig";

// The /top-up page where the operator's setting is "sandbox": the card goes to the gateway's
// tokenizer (fetch), and our API (apiRequest) sees only the token. Refine's hooks are stand-ins.
const TOKENIZE_URL = "http://127.0.0.1:8090/v1/tokens";
const apiRequest = vi.hoisted(() => vi.fn());
const lists = vi.hoisted(() => ({
  accounts: [
    {
      id: "7d1c7a52-0000-4000-8000-000000000001",
      name: "Alex Rivera",
      type: "prepaid",
      balance: { amount: 2500, currency: "USD" },
    },
  ],
  "top-ups": [
    {
      id: "t1",
      accountId: "a",
      amount: { amount: 1500, currency: "USD" },
      status: "completed",
      refund: "none",
      gatewayCaptured: true,
      paymentMethodId: null,
      failureReason: null,
      createdAt: "2026-11-20T10:00:00Z",
      updatedAt: "2026-11-20T10:00:02Z",
    },
    {
      id: "t2",
      accountId: "a",
      amount: { amount: 900, currency: "USD" },
      status: "cancelled",
      refund: "none",
      gatewayCaptured: true,
      paymentMethodId: null,
      failureReason: null,
      createdAt: "2026-11-21T10:00:00Z",
      updatedAt: "2026-11-21T10:05:00Z",
    },
  ],
  "payment-methods": [
    {
      id: "pm1",
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2028,
      isDefault: true,
      createdAt: "2026-11-20T10:00:00Z",
    },
  ],
}));
vi.mock("../../src/providers/apiClient", () => ({ apiRequest }));
vi.mock("@refinedev/core", () => ({
  useCustom: () => ({
    query: { isLoading: false },
    result: { data: { gateway: "sandbox", tokenizeUrl: TOKENIZE_URL } },
  }),
  useList: ({ resource }: { resource: keyof typeof lists }) => ({
    result: { data: lists[resource], total: lists[resource].length },
    query: { isLoading: false },
  }),
  useInvalidate: () => async () => {},
  // The voucher card beside the card form (its own test: topUpPage.test.tsx) stays out of this page's test.
  useCan: () => ({ data: { can: false } }),
}));
const { TopUpPage } = await import("../../src/pages/money/TopUpPage");

const renderPage = () =>
  render(
    <App>
      <MemoryRouter>
        <TopUpPage />
      </MemoryRouter>
    </App>,
  );

describe("the card top-up page (sandbox gateway)", () => {
  const fetchMock = vi.fn();
  beforeEach(() => {
    apiRequest
      .mockReset()
      .mockResolvedValue({ id: "t3", amount: { amount: 1000, currency: "USD" }, status: "completed" });
    fetchMock
      .mockReset()
      .mockResolvedValue(new Response(JSON.stringify({ token: "tok_test_123456" }), { status: 201 }));
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    act(() => setLocale("en", { remember: false }));
  });

  it("posts the card to the gateway's tokenizer and tops up with the token only", async () => {
    renderPage();
    fireEvent.change(screen.getByLabelText("Amount"), { target: { value: "10" } });
    fireEvent.blur(screen.getByLabelText("Amount"));
    fireEvent.change(screen.getByLabelText("Card number"), { target: { value: "4242 4242 4242 4242" } });
    fireEvent.change(screen.getByLabelText("Expiry (MM/YY)"), { target: { value: "12/30" } });
    fireEvent.change(screen.getByLabelText("Security code"), { target: { value: "123" } });
    fireEvent.click(screen.getByRole("button", { name: "Top up" }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith("/top-ups", expect.objectContaining({ method: "POST" })),
    );
    expect(fetchMock).toHaveBeenCalledWith(TOKENIZE_URL, expect.objectContaining({ method: "POST" }));
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body as string)).toMatchObject({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    });
    const [, request] = apiRequest.mock.calls.find(([path]) => path === "/top-ups")!;
    expect(request.body).toEqual({
      accountId: lists.accounts[0]!.id,
      amount: { amount: 1000, currency: "USD" },
      cardToken: "tok_test_123456",
    });
    expect(request.headers["idempotency-key"]).toMatch(/\w{8,}/);
    // Our API never saw the number.
    expect(JSON.stringify(apiRequest.mock.calls)).not.toContain("4242424242424242");
    expect((await screen.findByTestId("top-up-result")).textContent).toContain("$10.00 was added");
  });

  it("lists top-ups with their state and last change, offers the refund claim where the card was charged, and the saved cards", async () => {
    renderPage();
    const items = screen.getAllByTestId("top-up");
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toMatch(/Completed.*Last change/);
    expect(within(items[0]!).queryByRole("button", { name: "Claim my money back" })).toBeNull();
    fireEvent.click(within(items[1]!).getByRole("button", { name: "Claim my money back" }));
    // The confirmation's own button says the same.
    await waitFor(() => expect(screen.getAllByRole("button", { name: "Claim my money back" })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole("button", { name: "Claim my money back" }).at(-1)!);
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith("/top-ups/t2/actions/claim-refund", { method: "POST", body: {} }),
    );
    const card = screen.getByTestId("payment-method");
    expect(card.textContent).toContain("Visa ending in 4242");
    expect(within(card).getByRole("button", { name: "Remove Visa ending in 4242" })).toBeTruthy();
  });

  it("speaks Spanish", () => {
    act(() => setLocale("es", { remember: false }));
    renderPage();
    expect(screen.getByLabelText("Número de tarjeta")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Recargar" })).toBeTruthy();
    expect(screen.getByText("Tus recargas con tarjeta")).toBeTruthy();
  });

  describe("with Remote Config's card_top_up_enabled off", () => {
    afterEach(() => act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }, "defaults")));

    it("says card top-up is turned off and offers vouchers, with no card form; the top-ups stay listed with their refund claim", () => {
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      renderPage();
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain("Card top-up is turned off for now");
      // The voucher is offered on the page itself (VoucherTopUp, tested in topUpPage.test.tsx).
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain("Add credit with a prepaid voucher below");
      expect(screen.queryByLabelText("Card number")).toBeNull();
      expect(screen.queryByRole("button", { name: "Top up" })).toBeNull();
      expect(screen.getAllByTestId("top-up")).toHaveLength(2);
      expect(screen.getByRole("button", { name: "Claim my money back" })).toBeTruthy();
    });

    it("switches at once when Remote Config activates the change, both ways", () => {
      renderPage();
      expect(screen.getByLabelText("Card number")).toBeTruthy();
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      expect(screen.queryByLabelText("Card number")).toBeNull();
      expect(screen.getByTestId("top-up-turned-off")).toBeTruthy();
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }));
      expect(screen.getByLabelText("Card number")).toBeTruthy();
    });

    it("speaks Spanish", () => {
      act(() => setLocale("es", { remember: false }));
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      renderPage();
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain(
        "La recarga con tarjeta está desactivada por ahora",
      );
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain(
        "Añade saldo con un cupón prepago aquí abajo",
      );
    });
  });
});
