import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { linesResource } from "../../src/resources/lines";
import type { AddOn } from "../../src/resources/addOns";
import { BuyDialog } from "../../src/components/addOns/AddOnDialogs";
import { useResourceAction } from "../../src/components/actions/useResourceAction";
import { renderWithRefine } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Buying a pass: the dialog says where it is paid from, its button says the same, and a prepaid
// balance short of the price is said before Pay, with the way to top up, not only after a refusal.
const ACCOUNT = "22222222-2222-4222-8222-222222222222";
const PASS = {
  id: "66666666-6666-4666-8666-666666666666",
  name: "1 GB data pass",
  kind: "data",
  price: { amount: 1000, currency: "USD" },
  dataMb: 1024,
  validityDays: 7,
  status: "active",
} as unknown as AddOn;

function Dialog({ accountType }: { accountType: "prepaid" | "postpaid" }) {
  const line = {
    id: "11111111-1111-4111-8111-111111111111",
    status: "active",
    msisdn: "+12025550103",
    accountId: ACCOUNT,
    accountType,
  };
  const buy = useResourceAction(linesResource, "buy-add-on", line);
  return <BuyDialog buy={buy} addOn={PASS} line={line} onClose={() => {}} />;
}

function renderDialog(accountType: "prepaid" | "postpaid", balance: number) {
  const getOne = vi.fn(() =>
    Promise.resolve({ data: { id: ACCOUNT, type: accountType, balance: { amount: balance, currency: "USD" } } }),
  );
  const provider = renderWithRefine(<Dialog accountType={accountType} />, {
    identity: { uid: "demo-sam", role: "subscriber" },
    data: { getOne },
  });
  return { getOne, provider };
}

afterEach(() => setLocale("en", { remember: false }));

describe("buying a pass", () => {
  it("with a balance short of the price: says so before Pay, offers the top-up, and Pay waits", async () => {
    renderDialog("prepaid", 0);
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByText("Your balance ($0.00) is $10.00 short of this pass.");
    expect(within(dialog).getByRole("link", { name: "Top up at least $10.00" }).getAttribute("href")).toBe("/top-up");
    expect(within(dialog).getByRole("button", { name: "Pay $10.00" }).hasAttribute("disabled")).toBe(true);
  });

  it("with enough balance: Pay, and no warning", async () => {
    const { getOne } = renderDialog("prepaid", 4000);
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(getOne).toHaveBeenCalled());
    const pay = within(dialog).getByRole("button", { name: "Pay $10.00" });
    await waitFor(() => expect(pay.hasAttribute("disabled")).toBe(false));
    expect(within(dialog).queryByText(/short of this pass/)).toBeNull();
    expect(within(dialog).queryByRole("link", { name: /Top up/ })).toBeNull();
  });

  it("on a bill: the button adds it to the bill, in English and Spanish, and no balance is read", async () => {
    const { getOne } = renderDialog("postpaid", 0);
    const dialog = await screen.findByRole("dialog");
    within(dialog).getByText("1 GB for 7 days. $10.00 is added to your next bill.");
    within(dialog).getByRole("button", { name: "Add $10.00 to my bill" });
    expect(getOne).not.toHaveBeenCalled();
  });

  it("speaks Spanish", async () => {
    setLocale("es", { remember: false });
    renderDialog("prepaid", 250);
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByText(/A tu saldo \(.*2[.,]50.*\) le faltan .*7[.,]50.* para este pase\./);
    within(dialog).getByRole("link", { name: /Recarga al menos/ });
  });
});
