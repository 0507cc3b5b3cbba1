import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Refine, type AuthProvider, type DataProvider } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntdApp } from "antd";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { linesResource } from "../../src/resources/lines";
import "../../src/resources"; // registers the declarations' messages
import { i18nProvider } from "../../src/providers/i18nProvider";
import { applyFeatureFlags } from "../../src/providers/remoteConfig";
import { ActionDialog } from "../../src/components/actions/ActionDialog";

// Remote Config's esim_transfer_enabled: while it is off, "Replace SIM" offers no eSIM (the
// declaration's optionToggles; the backend refuses one with 422 too), and a physical SIM still can.
const line = {
  id: "55555555-5555-4555-8555-555555555555",
  ownerUid: "demo-alex",
  msisdn: "+12025550102",
  iccid: "8901410000000012345",
  simType: "physical",
  status: "active",
  numberLocked: false,
};

function renderSwapSim() {
  const dataProvider = {
    getApiUrl: () => "/api/v1",
    getOne: vi.fn(),
    getList: vi.fn(async () => ({ data: [], total: 0 })),
    getMany: vi.fn(async () => ({ data: [] })),
    create: vi.fn(),
    update: vi.fn(),
    deleteOne: vi.fn(),
    custom: vi.fn(),
  } as unknown as DataProvider;
  const authProvider: AuthProvider = {
    login: async () => ({ success: true }),
    logout: async () => ({ success: true }),
    check: async () => ({ authenticated: true }),
    onError: async () => ({}),
    getIdentity: async () => ({ uid: "demo-alex", role: "subscriber", operator: "ATT" }),
  };
  render(
    <MemoryRouter>
      <AntdApp>
        <Refine dataProvider={dataProvider} authProvider={authProvider} routerProvider={routerProvider} i18nProvider={i18nProvider} options={{ disableTelemetry: true }}>
          <ActionDialog resource={linesResource} name="swap-sim" action={linesResource.actions!["swap-sim"]!} record={line} open onClose={() => undefined} />
        </Refine>
      </AntdApp>
    </MemoryRouter>,
  );
}

async function simTypeOptions() {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByLabelText("New SIM"));
  await screen.findByRole("listbox");
  await waitFor(() => expect(document.querySelectorAll(".ant-select-item-option").length).toBeGreaterThan(0));
  return [...document.querySelectorAll(".ant-select-item-option")].map((o) => o.textContent);
}

describe("Replace SIM and Remote Config's esim_transfer_enabled", () => {
  afterEach(() => act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }, "defaults")));

  it("offers no eSIM while the toggle is off and again once it is on; the physical SIM's number is still asked", async () => {
    act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS, esim_transfer_enabled: false }));
    renderSwapSim();
    expect(await simTypeOptions()).toEqual(["Physical SIM"]);
    expect(screen.getByLabelText("Number of the new SIM (ICCID)")).toBeTruthy();
    // Remote Config activates the defaults again: the open list offers the eSIM at once.
    act(() => applyFeatureFlags({ ...FEATURE_FLAG_DEFAULTS }));
    await waitFor(() => expect([...document.querySelectorAll(".ant-select-item-option")].map((o) => o.textContent)).toEqual(["Physical SIM", "eSIM"]));
  });
});
