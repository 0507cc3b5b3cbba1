import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { applyFeatureFlags } from "../../src/providers/remoteConfig";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";
import { objectContaining, stringMatching } from "../support/matchers";

// The /top-up page where the operator's setting is "sandbox": the card goes to the gateway's
// tokenizer (fetch), and our API (the data provider, a stand-in) sees only the token.
const TOKENIZE_URL = "http://127.0.0.1:8090/v1/tokens";
const lists = {
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
};
const { TopUpPage } = await import("../../src/pages/money/TopUpPage");

const create = vi.fn();
const custom = vi.fn(({ url }: { url: string; method: string; payload?: unknown }) =>
  Promise.resolve({ data: url === "/payment-gateway" ? { gateway: "sandbox", tokenizeUrl: TOKENIZE_URL } : {} }),
);
const getList = vi.fn(({ resource }: { resource: string }) => {
  const data = lists[resource as keyof typeof lists] ?? [];
  return Promise.resolve({ data, total: data.length });
});

const renderPage = () =>
  renderWithRefine(<TopUpPage />, {
    identity: { uid: "alex", role: "subscriber" },
    data: { create, custom, getList },
    // The voucher card beside the card form (its own test: topUpPage.test.tsx) stays out of this page's test.
    can: ({ action }) => action !== "redeem-voucher",
  });

describe("the card top-up page (sandbox gateway)", () => {
  const fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();
  beforeEach(() => {
    create
      .mockReset()
      .mockResolvedValue({ data: { id: "t3", amount: { amount: 1000, currency: "USD" }, status: "completed" } });
    custom.mockClear();
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
    // The first prepaid account is chosen once the accounts have loaded.
    await screen.findByTitle("Alex Rivera · $25.00");
    fireEvent.change(screen.getByLabelText("Amount"), { target: { value: "10" } });
    fireEvent.blur(screen.getByLabelText("Amount"));
    fireEvent.change(screen.getByLabelText("Card number"), { target: { value: "4242 4242 4242 4242" } });
    fireEvent.change(screen.getByLabelText("Expiry (MM/YY)"), { target: { value: "12/30" } });
    fireEvent.change(screen.getByLabelText("Security code"), { target: { value: "123" } });
    fireEvent.click(screen.getByRole("button", { name: "Top up" }));
    await waitFor(() => expect(create).toHaveBeenCalledWith(objectContaining({ resource: "top-ups" })));
    expect(fetchMock).toHaveBeenCalledWith(TOKENIZE_URL, objectContaining({ method: "POST" }));
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toMatchObject({
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    });
    const [request] = (create.mock.calls as [SentRequest][]).find(([call]) => call.resource === "top-ups")!;
    expect(request.variables).toEqual({
      accountId: lists.accounts[0]!.id,
      amount: { amount: 1000, currency: "USD" },
      cardToken: "tok_test_123456",
    });
    expect(request.meta?.idempotencyKey).toMatch(/\w{8,}/);
    // Our API never saw the number.
    expect(JSON.stringify([create.mock.calls, custom.mock.calls])).not.toContain("4242424242424242");
    expect((await screen.findByTestId("top-up-result")).textContent).toContain("$10.00 was added");
  });

  it("lists top-ups with their state and last change, offers the refund claim where the card was charged, and the saved cards", async () => {
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId("top-up")).toHaveLength(2));
    const items = screen.getAllByTestId("top-up");
    expect(items[0]!.textContent).toMatch(/Completed.*Last change/);
    expect(within(items[0]!).queryByRole("button", { name: "Claim my money back" })).toBeNull();
    fireEvent.click(await within(items[1]!).findByRole("button", { name: "Claim my money back" }));
    // The confirmation's own button says the same.
    await waitFor(() => expect(screen.getAllByRole("button", { name: "Claim my money back" })).toHaveLength(2));
    fireEvent.click(screen.getAllByRole("button", { name: "Claim my money back" }).at(-1)!);
    // The declared claim-refund, with its idempotency key.
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        objectContaining({
          url: "/api/v1/top-ups/t2/actions/claim-refund",
          method: "post",
          payload: {},
          meta: objectContaining({ idempotencyKey: stringMatching(/\w{8,}/) }),
        }),
      ),
    );
    const card = await screen.findByTestId("payment-method");
    expect(card.textContent).toContain("Visa ending in 4242");
    expect(within(card).getByRole("button", { name: "Remove Visa ending in 4242" })).toBeTruthy();
  });

  it("speaks Spanish", async () => {
    act(() => setLocale("es", { remember: false }));
    renderPage();
    expect(await screen.findByLabelText("Número de tarjeta")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Recargar" })).toBeTruthy();
    expect(screen.getByText("Tus recargas con tarjeta")).toBeTruthy();
  });

  describe("with Remote Config's card_top_up_enabled off", () => {
    afterEach(() => act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }, "defaults")));

    it("says card top-up is turned off and offers vouchers, with no card form; the top-ups stay listed with their refund claim", async () => {
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      renderPage();
      expect((await screen.findByTestId("top-up-turned-off")).textContent).toContain(
        "Card top-up is turned off for now",
      );
      // The voucher is offered on the page itself (VoucherTopUp, tested in topUpPage.test.tsx).
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain("Add credit with a prepaid voucher below");
      expect(screen.queryByLabelText("Card number")).toBeNull();
      expect(screen.queryByRole("button", { name: "Top up" })).toBeNull();
      await waitFor(() => expect(screen.getAllByTestId("top-up")).toHaveLength(2));
      expect(await screen.findByRole("button", { name: "Claim my money back" })).toBeTruthy();
    });

    it("switches at once when Remote Config activates the change, both ways", async () => {
      renderPage();
      expect(await screen.findByLabelText("Card number")).toBeTruthy();
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      expect(screen.queryByLabelText("Card number")).toBeNull();
      expect(screen.getByTestId("top-up-turned-off")).toBeTruthy();
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }));
      expect(screen.getByLabelText("Card number")).toBeTruthy();
    });

    it("speaks Spanish", async () => {
      act(() => setLocale("es", { remember: false }));
      act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, card_top_up_enabled: false }));
      renderPage();
      expect((await screen.findByTestId("top-up-turned-off")).textContent).toContain(
        "La recarga con tarjeta está desactivada por ahora",
      );
      expect(screen.getByTestId("top-up-turned-off").textContent).toContain(
        "Añade saldo con un cupón prepago aquí abajo",
      );
    });
  });
});
