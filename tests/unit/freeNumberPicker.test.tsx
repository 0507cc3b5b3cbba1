import { useState } from "react";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FreeNumberPicker } from "../../src/components/numbers/FreeNumberPicker";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import { linesResource } from "../../src/resources/lines";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// The number picker of add-line and change-number (issue 28): free numbers of an area code as a radio
// group, the picked one held for the person; the server's refusals (none free, someone else holds it)
// said at the field. The data provider is a stand-in answering as server/domain/numberInventory does.
const free = (areaCode: string, ...last4: string[]) =>
  last4.map((digits) => ({ msisdn: `+1${areaCode}555${digits}`, areaCode }));

/** A problem as the data provider throws it (src/providers/apiClient.ts toHttpError). */
const problem = (statusCode: number, message: string, errors?: Record<string, string[]>) =>
  Object.assign(new Error(message), { statusCode, ...(errors ? { errors } : {}) });

function renderPicker(answer: (request: SentRequest) => Promise<{ data: unknown }>, startAreaCode = "202") {
  const custom = vi.fn(answer);
  const picked: (string | undefined)[] = [];
  function Controlled() {
    const [value, setValue] = useState<string>();
    return (
      <FreeNumberPicker
        id="msisdn"
        legend="New number"
        startAreaCode={startAreaCode}
        value={value}
        onChange={(msisdn) => {
          picked.push(msisdn);
          setValue(msisdn);
        }}
      />
    );
  }
  renderWithRefine(<Controlled />, { identity: { uid: "demo-alex", role: "subscriber" }, data: { custom } });
  const asked = () =>
    custom.mock.calls
      .map(([request]) => request)
      .filter((r) => r.method === "get")
      .map((r) => r.url);
  return { custom, picked, asked };
}

describe("FreeNumberPicker", () => {
  it("lists the free numbers of the area code it starts at, as a radio group under a legend", async () => {
    const { asked } = renderPicker(() => Promise.resolve({ data: { data: free("202", "1000", "1001"), total: 2 } }));
    expect(screen.getByRole("group", { name: "New number" })).toBeTruthy();
    expect(screen.getByLabelText("Area code")).toHaveProperty("value", "202");
    const numbers = await screen.findByRole("group", { name: "Free numbers in area code 202" });
    expect(
      within(numbers)
        .getAllByRole("radio")
        .map((r) => r.closest("label")!.textContent),
    ).toEqual(["(202) 555-1000", "(202) 555-1001"]);
    expect(asked()).toEqual(["/number-inventory?areaCode=202"]);
  });

  it("holds the number picked, and says until when", async () => {
    const { custom, picked } = renderPicker(({ method }) =>
      Promise.resolve(
        method === "get"
          ? { data: { data: free("202", "1000"), total: 1 } }
          : { data: { msisdn: "+12025551000", areaCode: "202", reservedUntil: "2026-11-20T15:45:00.000Z" } },
      ),
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole("radio", { name: "(202) 555-1000" }));
    expect(picked).toEqual(["+12025551000"]);
    expect(await screen.findByText(/^\(202\) 555-1000 is held for you until \d{1,2}:45/)).toBeTruthy();
    const holds = custom.mock.calls.map(([request]) => request).filter((r) => r.method === "post");
    expect(holds).toEqual([expect.objectContaining({ url: "/number-inventory/%2B12025551000/actions/reserve" })]);
  });

  it("holds only the number the person stays on, not each one passed (arrow keys pick every radio on the way)", async () => {
    const { custom } = renderPicker(({ method, url }) =>
      Promise.resolve(
        method === "get"
          ? { data: { data: free("202", "1000", "1001", "1002"), total: 3 } }
          : {
              data: {
                msisdn: decodeURIComponent(url!.split("/")[2]!),
                areaCode: "202",
                reservedUntil: "2026-11-20T15:45:00.000Z",
              },
            },
      ),
    );
    for (const last4 of ["1000", "1001", "1002"])
      fireEvent.click(await screen.findByRole("radio", { name: `(202) 555-${last4}` }));
    await screen.findByText(/^\(202\) 555-1002 is held for you/);
    const holds = custom.mock.calls.map(([request]) => request).filter((r) => r.method === "post");
    expect(holds.map((r) => r.url)).toEqual(["/number-inventory/%2B12025551002/actions/reserve"]);
  });

  it("says in the server's words that someone else holds the number, lets it go and reads the list again", async () => {
    const { asked, picked } = renderPicker(({ method }) =>
      method === "get"
        ? Promise.resolve({ data: { data: free("202", "1000", "1001"), total: 2 } })
        : Promise.reject(
            problem(409, "Someone else is holding that number for a few minutes; pick another one.", {
              msisdn: ["reserved by someone else"],
            }),
          ),
    );
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole("radio", { name: "(202) 555-1001" }));
    expect(
      await screen.findByText("Someone else is holding that number for a few minutes; pick another one."),
    ).toBeTruthy();
    expect(picked).toEqual(["+12025551001", undefined]);
    await waitFor(() => expect(asked()).toHaveLength(2));
    expect(screen.queryByText(/is held for you/)).toBeNull();
  });

  it("says at the area code when it has no free number, and looks up another one typed", async () => {
    const { asked } = renderPicker(
      ({ url }) =>
        url!.endsWith("=303")
          ? Promise.reject(
              problem(409, "There are no free numbers in area code 303 right now; try a nearby area code.", {
                areaCode: ["no free numbers"],
              }),
            )
          : Promise.resolve({ data: { data: free("301", "1000"), total: 1 } }),
      "303",
    );
    const area = screen.getByLabelText("Area code");
    expect(
      await screen.findByText("There are no free numbers in area code 303 right now; try a nearby area code."),
    ).toBeTruthy();
    expect(area.getAttribute("aria-invalid")).toBe("true");
    const user = userEvent.setup({ delay: null });
    await user.clear(area);
    await user.type(area, "301");
    expect(await screen.findByRole("radio", { name: "(301) 555-1000" })).toBeTruthy();
    expect(area.getAttribute("aria-invalid")).toBeNull();
    expect(asked()).toEqual(["/number-inventory?areaCode=303", "/number-inventory?areaCode=301"]);
  });

  it("asks nothing for an area code that cannot be one, and says why at the field", async () => {
    const { asked } = renderPicker(() => Promise.resolve({ data: { data: [], total: 0 } }), "");
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText("Area code"), "1a23");
    expect(screen.getByLabelText("Area code")).toHaveProperty("value", "123");
    expect(await screen.findByText("3 digits, not starting with 0 or 1, such as 202")).toBeTruthy();
    expect(asked()).toEqual([]);
  });
});

describe("change-number", () => {
  it("picks the new number from the free ones of the line's own area code", async () => {
    const custom = vi.fn(() => Promise.resolve({ data: { data: free("301", "1000"), total: 1 } }));
    renderWithRefine(
      <ActionDialog
        resource={linesResource}
        name="change-number"
        action={linesResource.actions!["change-number"]!}
        record={{ id: "5f0c7a52-0000-4000-8000-000000000001", msisdn: "+13015550101", status: "active" }}
        open
        onClose={() => undefined}
      />,
      { identity: { uid: "demo-alex", role: "subscriber" }, data: { custom } },
    );
    const picker = await screen.findByRole("group", { name: "New number" });
    expect(within(picker).getByLabelText("Area code")).toHaveProperty("value", "301");
    expect(await within(picker).findByRole("radio", { name: "(301) 555-1000" })).toBeTruthy();
  });
});
