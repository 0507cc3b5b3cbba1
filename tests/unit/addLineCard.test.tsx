import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { AddLineCard } from "../../src/pages/subscriber/AddLineCard";
import { renderWithRefine } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Shop's "Add a line" (issue 28): the account holder's way to a new line for the family. Only the
// holder: a manager lists the account too, but add-line is not shared with them.
const account = (id: string, ownerUid: string, type: string, status = "active") => ({
  id: `7d1c7a52-0000-4000-8000-00000000000${id}`,
  ownerUid,
  name: "Alex Rivera",
  type,
  status,
});

function renderCard(uid: string, accounts: ReturnType<typeof account>[]) {
  const getList = vi.fn(({ resource }: { resource: string }) =>
    Promise.resolve(resource === "accounts" ? { data: accounts, total: accounts.length } : { data: [], total: 0 }),
  );
  // The dialog's number picker looks up free numbers: none here.
  const custom = vi.fn(() => Promise.resolve({ data: { data: [], total: 0 } }));
  renderWithRefine(<AddLineCard uid={uid} />, { identity: { uid, role: "subscriber" }, data: { getList, custom } });
  return getList;
}

describe("Shop's Add a line", () => {
  it("lets a holder of several accounts pick one by its kind and name, and opens add-line for it", async () => {
    renderCard("demo-alex", [account("1", "demo-alex", "prepaid"), account("2", "demo-alex", "postpaid")]);
    const card = await screen.findByRole("region", { name: "A line for your family" });
    expect(
      within(card).getByText("A new line for someone in your family, with a new number or one you bring."),
    ).toBeTruthy();
    const which = within(card).getByRole("group", { name: "On which account" });
    const user = userEvent.setup({ delay: null });
    await user.click(within(which).getByRole("radio", { name: "Postpaid · Alex Rivera" }));
    await user.click(within(card).getByRole("button", { name: "Add a line" }));
    expect(await screen.findByRole("dialog", { name: "Add a line · Postpaid · Alex Rivera" })).toBeTruthy();
  });

  it("asks nothing of a holder of one account, and leaves out the accounts they only manage or that are closed", async () => {
    renderCard("demo-alex", [
      account("1", "demo-alex", "postpaid"),
      account("2", "someone-else", "prepaid"),
      account("3", "demo-alex", "prepaid", "closed"),
    ]);
    const card = await screen.findByRole("region", { name: "A line for your family" });
    expect(within(card).queryByRole("group")).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(within(card).getByRole("button", { name: "Add a line" }));
    expect(await screen.findByRole("dialog", { name: "Add a line · Postpaid · Alex Rivera" })).toBeTruthy();
  });

  it("is not there for a manager, who may not add lines", async () => {
    const getList = renderCard("demo-manager", [account("1", "demo-alex", "postpaid")]);
    await vi.waitFor(() => expect(getList).toHaveBeenCalled());
    expect(screen.queryByRole("region", { name: "A line for your family" })).toBeNull();
  });
});
