import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { renderWithRefine } from "../support/renderWithRefine";
import { objectContaining } from "../support/matchers";

// "People on this account" in the Account destination (issue 28 item 6): the holder sees who is on
// the account, invites a member for one line and removes a person; a manager only reads the list.
const ACCOUNT = "7d1c7a52-0000-4000-8000-000000000001";
const LINE = "7d1c7a52-0000-4000-8000-0000000000a1";
const lists = {
  accounts: [{ id: ACCOUNT, ownerUid: "demo-alex", name: "Alex Rivera", type: "postpaid", status: "active" }],
  lines: [{ id: LINE, msisdn: "+12025550102", accountId: ACCOUNT }],
};
const people = [
  {
    id: "m1",
    email: "maria@example.com",
    role: "member",
    status: "active",
    lines: [{ id: LINE, msisdn: "+12025550102" }],
    expiresAt: null,
    acceptedAt: "2026-11-20T10:00:00Z",
    createdAt: "2026-11-19T10:00:00Z",
  },
  {
    id: "m2",
    email: "sofia@example.com",
    role: "manager",
    status: "invited",
    lines: [],
    expiresAt: "2026-12-08T10:00:00Z",
    acceptedAt: null,
    createdAt: "2026-12-01T10:00:00Z",
  },
];
const { PeopleOnAccount } = await import("../../src/pages/subscriber/PeopleOnAccount");

function renderAs(uid: string) {
  const custom = vi.fn(({ url, method }: { url: string; method: string }) =>
    Promise.resolve({
      data:
        method === "get"
          ? { data: people }
          : url.endsWith("invite-member")
            ? { invitationUrl: "http://127.0.0.1:8080/join-account#token" }
            : { data: [] },
    }),
  );
  const getList = vi.fn(({ resource }: { resource: string }) => {
    const data = lists[resource as keyof typeof lists] ?? [];
    return Promise.resolve({ data, total: data.length });
  });
  renderWithRefine(<PeopleOnAccount uid={uid} />, {
    identity: { uid, role: "subscriber" },
    data: { custom, getList },
  });
  return custom;
}

afterEach(() => setLocale("en"));

describe("PeopleOnAccount", () => {
  it("tells two accounts under one name apart by their kind", async () => {
    const both = [
      ...lists.accounts,
      {
        id: "7d1c7a52-0000-4000-8000-000000000002",
        ownerUid: "demo-alex",
        name: "Alex Rivera",
        type: "prepaid",
        status: "active",
      },
    ];
    const saved = lists.accounts;
    lists.accounts = both;
    try {
      renderAs("demo-alex");
      expect(
        await screen.findByRole("heading", { name: "People on this account · Alex Rivera · Postpaid" }),
      ).toBeTruthy();
      expect(screen.getByRole("heading", { name: "People on this account · Alex Rivera · Prepaid" })).toBeTruthy();
    } finally {
      lists.accounts = saved;
    }
  });

  it("shows the holder each person with their role and lines, and invites a member for a line", async () => {
    const custom = renderAs("demo-alex");
    expect(await screen.findByRole("heading", { name: "People on this account" })).toBeTruthy();
    expect(await screen.findByText("maria@example.com")).toBeTruthy();
    expect(screen.getByText(/Member · \(202\) 555-0102/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Invite a person" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("Their email"), { target: { value: "sofia@example.com" } });
    fireEvent.click(await within(dialog).findByRole("checkbox", { name: "(202) 555-0102" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Send the invitation" }));
    expect(await within(dialog).findByText("http://127.0.0.1:8080/join-account#token")).toBeTruthy();
    expect(custom).toHaveBeenCalledWith(
      objectContaining({
        url: `/api/v1/accounts/${ACCOUNT}/actions/invite-member`,
        method: "post",
        payload: { email: "sofia@example.com", role: "member", lineIds: [LINE] },
      }),
    );
  });

  it("removes a person after a confirmation", async () => {
    const custom = renderAs("demo-alex");
    fireEvent.click(await screen.findByRole("button", { name: "Remove maria@example.com" }));
    expect(await screen.findAllByText("Remove maria@example.com?")).not.toHaveLength(0);
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        objectContaining({
          url: `/api/v1/accounts/${ACCOUNT}/actions/remove-member`,
          method: "post",
          payload: { memberId: "m1" },
        }),
      ),
    );
  });

  it("withdraws an invitation not yet taken, said as such", async () => {
    const custom = renderAs("demo-alex");
    const withdraw = await screen.findByRole("button", { name: "Withdraw the invitation to sofia@example.com" });
    expect(withdraw.textContent).toBe("Withdraw");
    fireEvent.click(withdraw);
    expect(await screen.findAllByText("Withdraw the invitation to sofia@example.com?")).not.toHaveLength(0);
    expect(
      screen.getAllByText("The link in the invitation stops working. You can invite them again later."),
    ).not.toHaveLength(0);
    fireEvent.click(await screen.findByRole("button", { name: "Withdraw" }));
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        objectContaining({ url: `/api/v1/accounts/${ACCOUNT}/actions/remove-member`, payload: { memberId: "m2" } }),
      ),
    );
  });

  it("lets a manager read the list but not invite or remove, in Spanish", async () => {
    setLocale("es");
    renderAs("demo-partner");
    expect(await screen.findByRole("heading", { name: "Personas en esta cuenta" })).toBeTruthy();
    expect(await screen.findByText("maria@example.com")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Invitar a una persona" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Quitar/ })).toBeNull();
  });
});
