import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { TopUpPage } from "../../src/pages/money/TopUpPage";
import { renderWithRefine } from "../support/renderWithRefine";

const account = {
  id: "acc-1",
  type: "prepaid",
  status: "active",
  name: "Alex Rivera",
  ownerUid: "alex",
  balance: { amount: 4000, currency: "USD" },
};
const home = {
  accounts: [{ id: "acc-1", type: "prepaid", balance: account.balance }],
  lines: [{ id: "line-1", msisdn: "+12025550101", accountId: "acc-1" }],
};

/** The page with the operator's top-up payment setting empty (ATT), for alex with one prepaid account. */
function renderTopUp(redeemed = { ...account, balance: { amount: 6500, currency: "USD" } }) {
  const custom = vi.fn(({ url }: { url: string; payload?: unknown }) => {
    if (url.endsWith("/home")) return Promise.resolve({ data: home });
    if (url.endsWith("/accounts/acc-1/actions/redeem-voucher")) return Promise.resolve({ data: redeemed });
    return Promise.reject(new Error(`unexpected ${url}`));
  });
  const getList = vi.fn(() => Promise.resolve({ data: [account], total: 1 }));
  renderWithRefine(<TopUpPage gateway="" />, {
    identity: { uid: "alex", role: "subscriber" },
    data: { custom, getList },
  });
  return custom;
}

describe("the top-up page", () => {
  afterEach(() => setLocale("en", { remember: false }));

  it("with the operator's top-up payment setting empty, says card top-up is unavailable and offers the voucher right there", async () => {
    renderTopUp();
    expect(screen.getAllByRole("status")[0]!.textContent).toContain("Top up with a prepaid voucher");
    await screen.findByRole("button", { name: "Redeem a voucher" });
    // One prepaid account: nothing to choose.
    expect(screen.queryByRole("radiogroup")).toBeNull();
    expect(document.body.textContent).not.toMatch(/card number/i);
  });

  it("redeems through the declared action, titled by the line's number, and says what was added and the new balance", async () => {
    const custom = renderTopUp();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole("button", { name: "Redeem a voucher" }));
    const dialog = await screen.findByRole("dialog", { name: "Redeem a voucher · (202) 555-0101" });
    expect(dialog.textContent).not.toMatch(/record/i);
    await user.type(screen.getByLabelText("Voucher code"), "ABCD-EFGH-JKLM-NPQR");
    await user.click(screen.getAllByRole("button", { name: "Redeem a voucher" }).at(-1)!);
    await screen.findByText("$25.00 added. Your balance is $65.00.");
    const call = custom.mock.calls.find(([request]) => request.url.endsWith("/actions/redeem-voucher"))![0];
    expect(call.payload).toEqual({ code: "ABCD-EFGH-JKLM-NPQR" });
  });

  it("speaks Spanish", async () => {
    setLocale("es", { remember: false });
    renderTopUp();
    expect(screen.getAllByRole("status")[0]!.textContent).toContain("Recarga con un cupón prepago");
    await screen.findByRole("button", { name: "Canjear un cupón" });
    await waitFor(() => expect(screen.getByTestId("voucher-top-up").textContent).toContain("Recargar con un cupón"));
  });
});
