import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { renderWithRefine } from "../support/renderWithRefine";

// The profile's "Your data" section: download, ask to close the account (the data provider's create),
// withdraw (the request's declared action); the data provider is a stand-in that records what it is asked.
const downloadMyData = vi.hoisted(() => vi.fn());
vi.mock("../../src/pages/profile/privacyApi", () => ({ downloadMyData }));
const { PrivacySection } = await import("../../src/pages/profile/PrivacySection");

const state = { canCreate: true, open: [] as { id: string; status: string; createdAt: string }[] };
const create = vi.fn(() => Promise.resolve({ data: { id: "new" } }));
const custom = vi.fn(() => Promise.resolve({ data: {} }));
const getList = vi.fn(() => Promise.resolve({ data: state.open, total: state.open.length }));

const renderSection = () =>
  renderWithRefine(<PrivacySection />, {
    identity: { uid: "alex", role: "subscriber" },
    data: { create, custom, getList },
    can: ({ action }) => action !== "create" || state.canCreate,
  });

describe("the profile's privacy section", () => {
  beforeEach(() => {
    downloadMyData.mockReset().mockResolvedValue(undefined);
    create.mockClear();
    custom.mockClear();
    getList.mockClear();
    Object.assign(state, { canCreate: true, open: [] });
  });
  afterEach(() => act(() => setLocale("en", { remember: false })));

  it("downloads the data export and says what the law keeps", async () => {
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: /Download my data/ }));
    await waitFor(() => expect(downloadMyData).toHaveBeenCalledTimes(1));
    expect(screen.getByText("Your bills, for 7 years (tax and accounting law).")).toBeTruthy();
    expect(screen.getByText(/Your payments, top-ups and charges/)).toBeTruthy();
  });

  it("asks to close the account after a confirmation, with the note", async () => {
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Close my account and delete my data" }));
    const note = await screen.findByLabelText("Anything we should know (optional)");
    fireEvent.change(note, { target: { value: "Moving abroad." } });
    fireEvent.click(screen.getByRole("button", { name: "Send the request" }));
    await waitFor(() =>
      expect(create).toHaveBeenCalledWith(
        expect.objectContaining({
          resource: "privacy-requests",
          variables: { kind: "close_and_delete", note: "Moving abroad." },
        }),
      ),
    );
    // Refine reads the open requests again, so the section shows the new one.
    await waitFor(() => expect(getList.mock.calls.length).toBeGreaterThan(1));
  });

  it("shows an open request and withdraws it", async () => {
    state.open = [{ id: "0b6f6a3e-7d0c-4a52-9a55-2b8f2f0d9b11", status: "open", createdAt: "2026-11-20T10:00:00Z" }];
    renderSection();
    expect((await screen.findByRole("status")).textContent).toMatch(/You asked to close your account on/);
    expect(screen.queryByRole("button", { name: "Close my account and delete my data" })).toBeNull();
    fireEvent.click(await screen.findByRole("button", { name: "Withdraw my request" }));
    await waitFor(() =>
      expect(custom).toHaveBeenCalledWith(
        expect.objectContaining({
          url: "/api/v1/privacy-requests/0b6f6a3e-7d0c-4a52-9a55-2b8f2f0d9b11/actions/withdraw",
          method: "post",
          payload: {},
        }),
      ),
    );
  });

  it("staff get the download but no request button; Spanish throughout", async () => {
    state.canCreate = false;
    act(() => setLocale("es", { remember: false }));
    renderSection();
    expect(await screen.findByRole("button", { name: /Descargar mis datos/ })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Cerrar mi cuenta/ })).toBeNull();
    expect(screen.getByText("Lo que debemos conservar")).toBeTruthy();
  });
});
