import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";

// The profile's "Your data" section: download, ask to close the account, withdraw; the API and
// Refine's hooks are stand-ins that record what the section asks for.
const apiRequest = vi.hoisted(() => vi.fn());
const downloadMyData = vi.hoisted(() => vi.fn());
const state = vi.hoisted(() => ({ canCreate: true, open: [] as { id: string; createdAt: string }[], invalidated: 0 }));
vi.mock("../../src/providers/apiClient", () => ({ apiRequest }));
vi.mock("../../src/pages/profile/privacyApi", () => ({ downloadMyData }));
vi.mock("@refinedev/core", () => ({
  useCan: () => ({ data: { can: state.canCreate } }),
  useList: () => ({ result: { data: state.open, total: state.open.length } }),
  useInvalidate: () => () => {
    state.invalidated++;
    return Promise.resolve();
  },
}));
const { PrivacySection } = await import("../../src/pages/profile/PrivacySection");

const renderSection = () =>
  render(
    <App>
      <PrivacySection />
    </App>,
  );

describe("the profile's privacy section", () => {
  beforeEach(() => {
    apiRequest.mockReset().mockResolvedValue({});
    downloadMyData.mockReset().mockResolvedValue(undefined);
    Object.assign(state, { canCreate: true, open: [], invalidated: 0 });
  });
  afterEach(() => act(() => setLocale("en", { remember: false })));

  it("downloads the data export and says what the law keeps", async () => {
    renderSection();
    fireEvent.click(screen.getByRole("button", { name: /Download my data/ }));
    await waitFor(() => expect(downloadMyData).toHaveBeenCalledTimes(1));
    expect(screen.getByText("Your bills, for 7 years (tax and accounting law).")).toBeTruthy();
    expect(screen.getByText(/Your payments, top-ups and charges/)).toBeTruthy();
  });

  it("asks to close the account after a confirmation, with the note", async () => {
    renderSection();
    fireEvent.click(screen.getByRole("button", { name: "Close my account and delete my data" }));
    const note = await screen.findByLabelText("Anything we should know (optional)");
    fireEvent.change(note, { target: { value: "Moving abroad." } });
    fireEvent.click(screen.getByRole("button", { name: "Send the request" }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith("/privacy-requests", {
        method: "POST",
        body: { kind: "close_and_delete", note: "Moving abroad." },
      }),
    );
    await waitFor(() => expect(state.invalidated).toBe(1));
  });

  it("shows an open request and withdraws it", async () => {
    state.open = [{ id: "0b6f6a3e-7d0c-4a52-9a55-2b8f2f0d9b11", createdAt: "2026-11-20T10:00:00Z" }];
    renderSection();
    expect(screen.getByRole("status").textContent).toMatch(/You asked to close your account on/);
    expect(screen.queryByRole("button", { name: "Close my account and delete my data" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Withdraw my request" }));
    await waitFor(() =>
      expect(apiRequest).toHaveBeenCalledWith(
        "/privacy-requests/0b6f6a3e-7d0c-4a52-9a55-2b8f2f0d9b11/actions/withdraw",
        { method: "POST", body: {} },
      ),
    );
  });

  it("staff get the download but no request button; Spanish throughout", () => {
    state.canCreate = false;
    act(() => setLocale("es", { remember: false }));
    renderSection();
    expect(screen.getByRole("button", { name: /Descargar mis datos/ })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Cerrar mi cuenta/ })).toBeNull();
    expect(screen.getByText("Lo que debemos conservar")).toBeTruthy();
  });
});
