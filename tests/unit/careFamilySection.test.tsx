import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { FamilySection } from "../../src/pages/care/sections/FamilySection";
import type { Subscriber } from "../../src/resources/subscribers";
import { renderWithRefine } from "../support/renderWithRefine";
import { objectContaining } from "../support/matchers";

// The 360's "Family" section (issue 28 item 7): the holder, the people on the account with their role,
// state and lines, the lines with their plan, data and limit, and the shared pool; an agent invites and
// removes people for the holder through the declared actions, with a reason. Before the caller is
// verified the APIs answer 403 caller-not-verified and the section says to verify first.
const ACCOUNT = "6f1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d";
const DAD = "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f10";
const KID = "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f11";
const PLAN = "9a6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f12";
const subscriber: Subscriber = {
  id: ACCOUNT,
  personId: "demo-alex",
  verifiedUntil: new Date(Date.now() + 25 * 60_000).toISOString(),
  name: "Alex Rivera",
  email: "alex@example.com",
  phone: "+12025550101",
  type: "postpaid",
  status: "active",
  lineCount: 2,
  lines: [],
  relevance: 1,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-02T10:00:00.000Z",
};
const line = (id: string, msisdn: string, dataCapMb: number | null) => ({
  id,
  accountId: ACCOUNT,
  msisdn,
  iccid: "8901260000000000101",
  simType: "esim",
  status: "active",
  planId: PLAN,
  planName: "Family Share 20 GB",
  suspendReason: null,
  dataCapMb,
});
const lines = [line(DAD, "+12025550101", null), line(KID, "+12025550102", 2048)];
const members = [
  {
    id: "m1",
    email: "maria@example.com",
    role: "member",
    status: "active",
    lines: [{ id: KID, msisdn: "+12025550102" }],
    expiresAt: null,
    acceptedAt: "2026-11-20T10:00:00Z",
    createdAt: "2026-11-19T10:00:00Z",
  },
  {
    id: "m2",
    email: "grandpa@example.com",
    role: "manager",
    status: "invited",
    lines: [],
    expiresAt: "2026-12-01T10:00:00Z",
    acceptedAt: null,
    createdAt: "2026-11-24T10:00:00Z",
  },
];
const meters = {
  accountId: ACCOUNT,
  pool: {
    planId: PLAN,
    planName: "Family Share 20 GB",
    allowance: 20480,
    used: 5120,
    left: 15360,
    cycleStart: "2026-11-01",
    cycleEnd: "2026-11-30",
    usedUp: false,
  },
  lines: [
    { lineId: DAD, msisdn: "+12025550101", shared: true, used: 4096, cap: null, capped: false },
    { lineId: KID, msisdn: "+12025550102", shared: true, used: 1024, cap: 2048, capped: false },
  ],
};
/** What the API answers an agent before the caller is verified (as the data provider throws it). */
const notVerified = () =>
  Object.assign(new Error("Verify the caller first."), {
    statusCode: 403,
    problemType: "/problems/caller-not-verified",
  });

function renderFamily({ verified = true } = {}) {
  const custom = vi.fn(({ url, method }: { url: string; method: string }) => {
    if (!verified) return Promise.reject(notVerified());
    if (method === "get") return Promise.resolve({ data: url.endsWith("/meters") ? meters : { data: members } });
    return Promise.resolve({
      data: url.endsWith("invite-member") ? { invitationUrl: "http://x/join#t" } : { data: [] },
    });
  });
  const getList = vi.fn(({ resource }: { resource: string }) =>
    verified && resource === "lines"
      ? Promise.resolve({ data: lines, total: lines.length })
      : verified
        ? Promise.resolve({ data: [], total: 0 })
        : Promise.reject(notVerified()),
  );
  renderWithRefine(<FamilySection subscriber={subscriber} />, {
    identity: { uid: "demo-agent", role: "agent" },
    data: { custom, getList },
    can: () => true,
  });
  return { custom, getList };
}

afterEach(() => act(() => setLocale("en", { remember: false })));

describe("the 360's family section", () => {
  it("shows the shared pool with its numbers and each line's plan, data and limit", async () => {
    const { custom } = renderFamily();
    const pool = await screen.findByTestId("family-pool");
    expect(within(pool).getByText("Shared data · Family Share 20 GB")).toBeTruthy();
    expect(screen.getByTestId("family-pool-used").textContent).toBe("5 GB of 20 GB · 15 GB left");
    expect(within(pool).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("25");
    const table = screen.getByTestId("family-lines");
    await within(table).findByText("(202) 555-0102");
    expect(within(table).getAllByText("Family Share 20 GB")).toHaveLength(2);
    expect(screen.getAllByTestId("family-line-data").map((c) => c.textContent)).toEqual([
      "4 GB usedShared data",
      "1 GB usedShared data",
    ]);
    expect(screen.getAllByTestId("family-line-cap").map((c) => c.textContent)).toEqual(["No limit", "2 GB"]);
    // The line's actions are the declared ones: its monthly data limit first.
    expect(within(table).getAllByRole("button", { name: "Data limit" })).toHaveLength(2);
    expect(custom).toHaveBeenCalledWith(objectContaining({ url: `/accounts/${ACCOUNT}/meters`, method: "get" }));
  });

  it("lists the holder and the people with their role, state and lines, and who uses each line", async () => {
    renderFamily();
    expect((await screen.findByTestId("family-holder")).textContent).toBe("Alex Rivera · alex@example.com");
    const people = screen.getByTestId("family-members");
    await within(people).findByText("maria@example.com");
    expect(within(people).getByText("grandpa@example.com")).toBeTruthy();
    expect(screen.getAllByTestId("family-member-role").map((c) => c.textContent)).toEqual(["Member", "Manager"]);
    expect(screen.getAllByTestId("family-member-lines").map((c) => c.textContent)).toEqual([
      "(202) 555-0102",
      "All lines",
    ]);
    expect(within(people).getByText("Joined")).toBeTruthy();
    expect(within(people).getByText(/^Invited, the link works until/)).toBeTruthy();
    expect(within(screen.getByTestId("family-lines")).getByText("maria@example.com")).toBeTruthy();
  });

  it("invites a member for a line and removes a person for the holder, each with the agent's reason", async () => {
    const { custom } = renderFamily();
    fireEvent.click(await screen.findByRole("button", { name: "Invite a person" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.change(within(dialog).getByLabelText("Their email"), { target: { value: "sofia@example.com" } });
    fireEvent.click(await within(dialog).findByRole("checkbox", { name: "(202) 555-0101" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Send the invitation" }));
    // No request without a reason.
    expect(await within(dialog).findByText("Give a reason of at least 3 characters.")).toBeTruthy();
    expect(custom).not.toHaveBeenCalledWith(objectContaining({ method: "post" }));
    fireEvent.change(within(dialog).getByLabelText("Reason"), { target: { value: "The holder asked on the phone" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Send the invitation" }));
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        objectContaining({
          url: `/api/v1/accounts/${ACCOUNT}/actions/invite-member`,
          method: "post",
          payload: {
            email: "sofia@example.com",
            role: "member",
            lineIds: [DAD],
            reason: "The holder asked on the phone",
          },
        }),
      ),
    );

    fireEvent.click(await screen.findByRole("button", { name: "Remove maria@example.com?" }));
    // The invitation's dialog may still be closing: the removal's is the one that says what happens.
    const says = await screen.findByText(/They lose access to this account at once/);
    const confirm = says.closest<HTMLElement>("[role=dialog]")!;
    fireEvent.change(within(confirm).getByLabelText("Reason"), { target: { value: "The holder asked to" } });
    fireEvent.click(within(confirm).getByRole("button", { name: "Remove" }));
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        objectContaining({
          url: `/api/v1/accounts/${ACCOUNT}/actions/remove-member`,
          method: "post",
          payload: { memberId: "m1", reason: "The holder asked to" },
        }),
      ),
    );
  });

  it("says to verify the caller first while the APIs refuse it, and shows no one", async () => {
    renderFamily({ verified: false });
    expect(await screen.findByTestId("verify-first")).toBeTruthy();
    expect(screen.getByText("Verify the caller to see this.")).toBeTruthy();
    expect(screen.queryByText("maria@example.com")).toBeNull();
    expect(screen.queryByTestId("family-pool")).toBeNull();
  });

  it("speaks Spanish", async () => {
    act(() => setLocale("es", { remember: false }));
    renderFamily();
    expect(await screen.findByText("Personas en la cuenta")).toBeTruthy();
    expect(await screen.findByText("Todas las líneas")).toBeTruthy();
    expect(await screen.findByText("Datos compartidos · Family Share 20 GB")).toBeTruthy();
  });
});
