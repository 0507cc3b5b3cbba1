import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { DataProvider } from "@refinedev/core";
import { describe, expect, it, vi } from "vitest";
import { plansResource } from "../../src/resources/plans";
import { ResourceFormPage } from "../../src/pages/ResourceFormPage";
import { renderWithRefine } from "../support/renderWithRefine";

// The plan's edit form, as an admin: the data allowance is typed in GB or MB and sent as whole MB;
// Unlimited is a checkbox of its own (null), and an empty amount is refused at the field.
const plan = {
  id: "0f4b9a1e-7c2d-4e8f-9a6b-3c5d7e9f1a2b",
  code: "PLUS_5",
  name: "Plus 5",
  kind: "postpaid",
  status: "draft",
  price: { amount: 3500, currency: "USD" },
  period: "month",
  dataMb: 5120,
  voiceMinutes: null,
  sms: null,
  features: [] as string[],
  pendingPrice: null,
  priceChangedAt: null,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-02T10:00:00.000Z",
};

function renderEdit(record: typeof plan, update: DataProvider["update"]) {
  renderWithRefine(null, {
    identity: { uid: "demo-admin", role: "admin" },
    data: { getOne: vi.fn(() => Promise.resolve({ data: record })), update },
    path: `/plans/edit/${record.id}`,
    resources: [{ name: "plans", list: "/plans", show: "/plans/show/:id", edit: "/plans/edit/:id" }],
    routes: {
      "/plans/edit/:id": <ResourceFormPage resource={plansResource} action="edit" />,
      "/plans/show/:id": <p>record page</p>,
    },
  });
}

/** The amount input once the record has loaded into it (the form mounts again when it has). */
async function loadedAmount(expected: string) {
  return waitFor(() => {
    const input = screen.getByLabelText<HTMLInputElement>("Data");
    expect(input.value).toBe(expected);
    return input;
  });
}

const sent = (update: ReturnType<typeof vi.fn>) =>
  (update.mock.calls[0] as unknown as [{ variables: Record<string, unknown> }])[0].variables;

describe("the data allowance input of the plan form", () => {
  it("shows MB as GB when they are whole, and sends what is typed in GB as MB", async () => {
    const update = vi.fn(() => Promise.resolve({ data: plan }));
    renderEdit(plan, update as unknown as DataProvider["update"]);
    const amount = await loadedAmount("5.00");
    expect(screen.getByText(/an empty amount is not unlimited/)).toBeTruthy(); // the format, before saving
    const user = userEvent.setup({ delay: null });
    await user.clear(amount);
    await user.type(amount, "1.5");
    await screen.findByText(/This is 1,536 MB\./);
    await user.click(screen.getByRole("button", { name: /Save$/ }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(sent(update).dataMb).toBe(1536);
    expect(sent(update).features).toEqual([]); // a plan with no features listed saves (an empty list is not "missing")
  });

  it("reads the number in the unit picked: 750 MB stays 750", async () => {
    const update = vi.fn(() => Promise.resolve({ data: plan }));
    renderEdit({ ...plan, dataMb: 750 }, update as unknown as DataProvider["update"]);
    const amount = await loadedAmount("750");
    const user = userEvent.setup({ delay: null });
    await user.clear(amount);
    await user.type(amount, "2");
    // Switch the unit to GB: the 2 typed now means 2 GB.
    await user.click(screen.getByRole("combobox", { name: "Unit" }));
    await user.click(await screen.findByTitle("GB"));
    await user.click(screen.getByRole("button", { name: /Save$/ }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(sent(update).dataMb).toBe(2048);
  });

  it("sends null only when Unlimited is ticked, and shows an unlimited plan as ticked", async () => {
    const update = vi.fn(() => Promise.resolve({ data: plan }));
    renderEdit(plan, update as unknown as DataProvider["update"]);
    await loadedAmount("5.00");
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole("checkbox", { name: "Unlimited" }));
    expect(screen.getByLabelText<HTMLInputElement>("Data").disabled).toBe(true);
    await user.click(screen.getByRole("button", { name: /Save$/ }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(sent(update).dataMb).toBeNull();
  });

  it("refuses an empty amount at the field, and sends nothing", async () => {
    const update = vi.fn();
    renderEdit(plan, update);
    const amount = await loadedAmount("5.00");
    const user = userEvent.setup({ delay: null });
    await user.clear(amount);
    await user.click(screen.getByRole("button", { name: /Save$/ }));
    await screen.findByText("Enter an amount of data, or tick Unlimited.");
    expect(update).not.toHaveBeenCalled();
  });

  it("loads an unlimited plan with Unlimited ticked", async () => {
    renderEdit({ ...plan, dataMb: null } as unknown as typeof plan, vi.fn());
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>("checkbox", { name: "Unlimited" }).checked).toBe(true),
    );
    expect(screen.getByLabelText<HTMLInputElement>("Data").disabled).toBe(true);
  });
});
