import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";

// Shop's "Add a line" (issue 28): the account holder's way to a new line for the family. Only the
// holder: a manager lists the account too, but add-line is not shared with them. The card reads the
// accounts without Refine (the light Shop draws it); its button leads to the address where the portal
// opens the declared add-line dialog (ShopDialogs; the e2e family story walks it).
const accounts = vi.hoisted(() => ({ data: undefined as unknown[] | undefined }));
vi.mock("../../src/pages/home/useLiveGet", () => ({ useLiveList: () => ({ data: accounts.data }) }));
const { default: AddLineCard, addLinePath } = await import("../../src/pages/subscriber/AddLineCard");

const account = (id: string, ownerUid: string, type: string, status = "active") => ({
  id: `7d1c7a52-0000-4000-8000-00000000000${id}`,
  ownerUid,
  name: "Alex Rivera",
  type,
  status,
});

function renderCard(uid: string, list: ReturnType<typeof account>[]) {
  accounts.data = list;
  const navigate = vi.fn();
  render(<AddLineCard uid={uid} navigate={navigate} />);
  return navigate;
}

describe("Shop's Add a line", () => {
  it("lets a holder of several accounts pick one by its kind and name, and opens add-line for it", async () => {
    const navigate = renderCard("demo-alex", [
      account("1", "demo-alex", "prepaid"),
      account("2", "demo-alex", "postpaid"),
    ]);
    const card = screen.getByRole("region", { name: "A line for your family" });
    expect(
      within(card).getByText("A new line for someone in your family, with a new number or one you bring."),
    ).toBeTruthy();
    const which = within(card).getByRole("group", { name: "On which account" });
    const user = userEvent.setup({ delay: null });
    await user.click(within(which).getByRole("radio", { name: "Postpaid · Alex Rivera" }));
    await user.click(within(card).getByRole("button", { name: "Add a line" }));
    expect(navigate).toHaveBeenCalledWith(addLinePath(account("2", "", "").id));
    expect(addLinePath("x")).toBe("/shop?add-line=x");
  });

  it("asks nothing of a holder of one account, and leaves out the accounts they only manage or that are closed", async () => {
    const navigate = renderCard("demo-alex", [
      account("1", "demo-alex", "postpaid"),
      account("2", "someone-else", "prepaid"),
      account("3", "demo-alex", "prepaid", "closed"),
    ]);
    const card = screen.getByRole("region", { name: "A line for your family" });
    expect(within(card).queryByRole("group")).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(within(card).getByRole("button", { name: "Add a line" }));
    expect(navigate).toHaveBeenCalledWith(addLinePath(account("1", "", "").id));
  });

  it("is not there for a manager, who may not add lines", () => {
    renderCard("demo-manager", [account("1", "demo-alex", "postpaid")]);
    expect(screen.queryByRole("region", { name: "A line for your family" })).toBeNull();
  });
});
