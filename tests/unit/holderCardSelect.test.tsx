import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { accountsResource } from "../../src/resources/accounts";
import { invoicesResource } from "../../src/resources/invoices";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import type { ComponentProps } from "react";
import { renderWithRefine } from "../support/renderWithRefine";

// An agent acting for a subscriber (autopay, paying a bill) picks a card: the select must ask the
// backend only for the cards of the acted-on record's holder (filter[ownerUid]), never every card
// of the operator. The data provider answers as the backend would, filtering by that holder.
const CARDS = [
  {
    id: "11111111-1111-4111-8111-111111111111",
    ownerUid: "demo-alex",
    brand: "visa",
    last4: "4242",
    expMonth: 12,
    expYear: 2030,
    isDefault: true,
    createdAt: "2026-11-01T10:00:00.000Z",
  },
  {
    id: "22222222-2222-4222-8222-222222222222",
    ownerUid: "demo-sam",
    brand: "visa",
    last4: "0002",
    expMonth: 12,
    expYear: 2030,
    isDefault: true,
    createdAt: "2026-11-01T10:00:00.000Z",
  },
];

const account = {
  id: "33333333-3333-4333-8333-333333333333",
  ownerUid: "demo-alex",
  name: "Alex Postpaid",
  type: "postpaid",
  status: "active",
  autopayPaymentMethodId: null,
};
const bill = {
  id: "44444444-4444-4444-8444-444444444444",
  ownerUid: "demo-alex",
  accountId: account.id,
  accountName: account.name,
  number: "ATT-1",
  status: "issued",
};

function renderAction(
  resource: ComponentProps<typeof ActionDialog>["resource"],
  name: string,
  record: ComponentProps<typeof ActionDialog>["record"],
) {
  const getList = vi.fn(({ filters }: { filters?: { field: string; operator: string; value: unknown }[] }) => {
    const owner = filters?.find((f) => f.field === "ownerUid" && f.operator === "eq")?.value;
    const data = owner === undefined ? CARDS : CARDS.filter((c) => c.ownerUid === owner);
    return Promise.resolve({ data, total: data.length });
  });
  renderWithRefine(
    <ActionDialog
      resource={resource}
      name={name}
      action={resource.actions![name]!}
      record={record}
      open
      onClose={() => undefined}
    />,
    {
      identity: { uid: "demo-agent", role: "agent" },
      data: { getList },
    },
  );
  return getList;
}

async function optionsOf(label: string) {
  const user = userEvent.setup({ delay: null });
  const select = await screen.findByLabelText(label);
  await user.click(select);
  const listbox = await screen.findByRole("listbox");
  await waitFor(() => expect(document.querySelectorAll(".ant-select-item-option").length).toBeGreaterThan(0));
  void listbox;
  return [...document.querySelectorAll(".ant-select-item-option")].map((o) => o.textContent);
}

describe("the card select of an action taken for a subscriber", () => {
  it("set-autopay offers only the account holder's cards", async () => {
    const getList = renderAction(accountsResource, "set-autopay", account);
    await waitFor(() =>
      expect(getList.mock.calls.some(([p]) => (p as { resource: string }).resource === "payment-methods")).toBe(true),
    );
    for (const [params] of getList.mock.calls.filter(
      ([p]) => (p as { resource: string }).resource === "payment-methods",
    )) {
      expect((params as { filters: unknown[] }).filters).toContainEqual({
        field: "ownerUid",
        operator: "eq",
        value: "demo-alex",
      });
    }
    expect(await optionsOf("Autopay card")).toEqual(["4242"]);
  });

  it("a bill's pay action offers only the bill holder's cards", async () => {
    const getList = renderAction(invoicesResource, "pay", bill);
    await waitFor(() =>
      expect(getList.mock.calls.some(([p]) => (p as { resource: string }).resource === "payment-methods")).toBe(true),
    );
    for (const [params] of getList.mock.calls.filter(
      ([p]) => (p as { resource: string }).resource === "payment-methods",
    )) {
      expect((params as { filters: unknown[] }).filters).toContainEqual({
        field: "ownerUid",
        operator: "eq",
        value: "demo-alex",
      });
    }
    expect(await optionsOf("Card or bank account")).toEqual(["4242"]);
  });

  it("an account without a holder offers no card and asks the backend for none", async () => {
    const getList = renderAction(accountsResource, "set-autopay", { ...account, ownerUid: null });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByLabelText("Autopay card"));
    await screen.findByRole("listbox");
    expect(document.querySelectorAll(".ant-select-item-option")).toHaveLength(0);
    expect(getList.mock.calls.filter(([p]) => (p as { resource: string }).resource === "payment-methods")).toEqual([]);
  });
});
