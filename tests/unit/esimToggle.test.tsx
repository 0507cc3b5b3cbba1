import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { linesResource } from "../../src/resources/lines";
import { applyFeatureFlags } from "../../src/providers/remoteConfig";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import { renderWithRefine } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

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
  return renderWithRefine(
    <ActionDialog
      resource={linesResource}
      name="swap-sim"
      action={linesResource.actions!["swap-sim"]!}
      record={line}
      open
      onClose={() => undefined}
    />,
    {
      identity: { uid: "demo-alex", role: "subscriber" },
      data: {
        custom: vi.fn(() =>
          Promise.resolve({
            data: {
              summary: "resources.lines.preview.swapToEsim",
              params: { msisdn: line.msisdn },
              lines: [],
              total: null,
            },
          }),
        ),
      },
    },
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
    await waitFor(() =>
      expect([...document.querySelectorAll(".ant-select-item-option")].map((o) => o.textContent)).toEqual([
        "Physical SIM",
        "eSIM",
      ]),
    );
  });

  it("an eSIM asks for the holder's ID instead of a SIM number: required at its field, uploaded as an id_document, sent with the swap", async () => {
    const dataProvider = renderSwapSim();
    const user = userEvent.setup({ delay: null });
    await simTypeOptions();
    await user.click(document.querySelector('.ant-select-item-option[title="eSIM"]')!);
    const input = await screen.findByLabelText("Your ID (photo or scan)");
    expect(screen.queryByLabelText("Number of the new SIM (ICCID)")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Review" }));
    expect(await screen.findByText("required for an eSIM: a photo or scan of your ID")).toBeTruthy();
    expect(dataProvider.custom).not.toHaveBeenCalled();

    const fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ id: "66666666-6666-4666-8666-666666666666", name: "id.jpg", size: 3 }), {
          status: 201,
        }),
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    fireEvent.change(input, {
      target: { files: [new File([new Uint8Array([0xff, 0xd8, 0xff])], "id.jpg", { type: "image/jpeg" })] },
    });
    await screen.findByText("id.jpg");
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toMatch(/\/files\?name=id.jpg&purpose=id_document$/);
    await user.click(screen.getByRole("button", { name: "Review" }));
    await waitFor(() => expect(dataProvider.custom).toHaveBeenCalled());
    const [request] = dataProvider.custom.mock.calls[0] as unknown as [{ payload: unknown }];
    expect(request.payload).toEqual({ simType: "esim", idDocumentFileId: "66666666-6666-4666-8666-666666666666" });
    vi.unstubAllGlobals();
  });
});
