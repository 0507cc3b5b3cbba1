import type { z } from "zod";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountsResource } from "../../src/resources/accounts";
import { ActionDialog, schemaAt } from "../../src/components/actions/ActionDialog";
import { prunedValues } from "../../src/components/actions/prunedValues";
import { sentValues } from "../../src/components/actions/sentValues";
import { setLocale } from "../../src/i18n";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Add a line (issue 28): its input is nested (number.msisdn, sim.address), and the engine's dialog
// draws it from the declaration alone: a dotted field is a path in the form and in the body. The
// number comes one way at a time: a free number picked from a list, or one brought from a carrier,
// chosen by a question of the form that is never sent.
const addLine = accountsResource.actions!["add-line"]!;
const account = {
  id: "66666666-6666-4666-8666-666666666666",
  ownerUid: "demo-alex",
  name: "Alex Rivera",
  type: "postpaid",
  status: "active",
};
const PLAN = "77777777-7777-4777-8777-777777777777";
const lists = {
  plans: [{ id: PLAN, name: "Postpaid Extra 50 GB", kind: "postpaid", status: "active" }],
  // The account's line is in area code 301: the picker starts there.
  lines: [{ id: "88888888-8888-4888-8888-888888888888", msisdn: "+13015550142", accountId: account.id }],
};
const FREE = ["+13015551000", "+13015551001"].map((msisdn) => ({ msisdn, areaCode: "301" }));
const QUOTE = {
  summary: "resources.accounts.preview.addLine",
  params: { msisdn: "+13015551001", plan: "P" },
  lines: [],
};

function renderDialog() {
  const custom = vi.fn(({ url, method }: { url: string; method: string }) => {
    if (method === "get") return Promise.resolve({ data: { data: FREE, total: FREE.length } });
    if (url.endsWith("/actions/reserve"))
      return Promise.resolve({
        data: { msisdn: "+13015551001", areaCode: "301", reservedUntil: "2026-11-20T15:45:00.000Z" },
      });
    return Promise.resolve({ data: QUOTE });
  });
  const getList = vi.fn(({ resource }: { resource: string }) => {
    const data = lists[resource as keyof typeof lists] ?? [];
    return Promise.resolve({ data, total: data.length });
  });
  renderWithRefine(
    <ActionDialog
      resource={accountsResource}
      name="add-line"
      action={addLine}
      record={account}
      open
      onClose={() => undefined}
    />,
    { identity: { uid: "demo-alex", role: "subscriber" }, data: { custom, getList } },
  );
  return { custom, getList };
}

/** What the dialog asked the server to quote. */
const previewOf = (custom: ReturnType<typeof renderDialog>["custom"]) =>
  (custom.mock.calls.map(([request]) => request as SentRequest).find((r) => r.url?.endsWith("/add-line/preview"))
    ?.payload ?? null) as Record<string, unknown> | null;

afterEach(() => setLocale("en"));

describe("the add-line dialog", () => {
  it("asks first how the number comes, and shows only that way: the picker, or the port-in details", async () => {
    renderDialog();
    const choice = await screen.findByRole("group", { name: "Your number" });
    expect(within(choice).getByRole("radio", { name: "A new number" })).toHaveProperty("checked", true);
    // The new number is picked, not typed, starting at the area code of the account's line.
    const picker = await screen.findByRole("group", { name: "New number" });
    await waitFor(() => expect(within(picker).getByLabelText("Area code")).toHaveProperty("value", "301"));
    expect(await within(picker).findByRole("radio", { name: "(301) 555-1000" })).toBeTruthy();
    expect(screen.queryByLabelText("Transfer PIN from your carrier")).toBeNull();

    const user = userEvent.setup({ delay: null });
    await user.click(within(choice).getByRole("radio", { name: "Bring my number from another carrier" }));
    expect(await screen.findByLabelText("Transfer PIN from your carrier")).toBeTruthy();
    expect(screen.getByLabelText("Number to bring from your carrier")).toBeTruthy();
    expect(screen.queryByRole("group", { name: "New number" })).toBeNull();
  });

  it("holds the number picked and sends it without the form's own question", async () => {
    const { custom } = renderDialog();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole("radio", { name: "(301) 555-1001" }));
    expect(await screen.findByText(/^\(301\) 555-1001 is held for you until \d{1,2}:45/)).toBeTruthy();
    expect(custom).toHaveBeenCalledWith(
      expect.objectContaining({ url: "/number-inventory/%2B13015551001/actions/reserve", method: "post" }),
    );
    await user.click(screen.getByLabelText("SIM"));
    await user.click(await screen.findByTitle("eSIM"));
    await user.click(screen.getByRole("button", { name: "Review" }));
    await waitFor(() => expect(previewOf(custom)).not.toBeNull());
    expect(previewOf(custom)).toEqual({ planId: PLAN, number: { msisdn: "+13015551001" }, sim: { simType: "esim" } });
  });

  it("asks for the port-in details once the person brings a number, and sends only them, never a number picked before", async () => {
    const { custom } = renderDialog();
    const user = userEvent.setup({ delay: null });
    // Picked a new number first, then changed their mind.
    await user.click(await screen.findByRole("radio", { name: "(301) 555-1001" }));
    await screen.findByText(/is held for you until/);
    await user.click(screen.getByRole("radio", { name: "Bring my number from another carrier" }));
    await user.click(screen.getByLabelText("SIM"));
    await user.click(await screen.findByTitle("eSIM"));
    await user.click(screen.getByRole("button", { name: "Review" }));
    // Shown because they bring a number, the details are required, each at its field.
    expect(await screen.findByText("Transfer PIN from your carrier: fill this in.")).toBeTruthy();
    expect(previewOf(custom)).toBeNull();

    const fill = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fill("Number to bring from your carrier", "+12025550188");
    fill("Account number at your carrier", "55501");
    fill("Transfer PIN from your carrier", "1111");
    fill("ZIP code on that account", "20001");
    await user.click(screen.getByRole("button", { name: "Review" }));
    await waitFor(() => expect(previewOf(custom)).not.toBeNull());
    expect(previewOf(custom)).toEqual({
      planId: PLAN,
      number: { portIn: { msisdn: "+12025550188", carrierAccount: "55501", transferPin: "1111", zip: "20001" } },
      sim: { simType: "esim" },
    });
  });

  it("asks for the delivery address only for a SIM card by post", async () => {
    renderDialog();
    await screen.findByRole("group", { name: "Your number" });
    expect(screen.queryByText("Delivery address")).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByLabelText("SIM"));
    await user.click(await screen.findByTitle("Physical SIM"));
    await waitFor(() => expect(screen.getByText("Delivery address")).toBeTruthy());
  });

  it("speaks Spanish", async () => {
    setLocale("es");
    renderDialog();
    const choice = await screen.findByRole("group", { name: "Tu número" });
    expect(within(choice).getByRole("radio", { name: "Un número nuevo" })).toBeTruthy();
    expect(within(choice).getByRole("radio", { name: "Traer mi número de otra compañía" })).toBeTruthy();
    expect(await screen.findByRole("group", { name: "Números libres con el código de área 301" })).toBeTruthy();
  });
});

describe("the body sent", () => {
  it("leaves out nested groups left empty", () => {
    expect(
      prunedValues({
        planId: "p",
        number: { msisdn: "+12025551000", portIn: { msisdn: "", carrierAccount: undefined } },
        sim: { simType: "esim", address: { line1: "", city: null } },
        reason: "",
      }),
    ).toEqual({ planId: "p", number: { msisdn: "+12025551000" }, sim: { simType: "esim" } });
  });

  it("leaves out the form's own question and what the form hides (typed before the person changed their mind)", () => {
    expect(
      sentValues(addLine, {
        planId: "p",
        numberChoice: "new",
        number: { msisdn: "+12025551000", portIn: { msisdn: "+12025550188", transferPin: "1111" } },
        sim: { simType: "esim", address: { line1: "1 Main St", city: "Springfield" } },
        reason: "asked",
      }),
    ).toEqual({ planId: "p", number: { msisdn: "+12025551000" }, sim: { simType: "esim" }, reason: "asked" });
    expect(sentValues(addLine, { planId: "p", numberChoice: "port", number: { msisdn: "+12025551000" } })).toEqual({
      planId: "p",
    });
  });
});

describe("the fields of an optional group", () => {
  it("are optional in the form, unless shown because the person asked for them; a required group's are not", () => {
    const shape = addLine.input!.shape as Record<string, z.ZodType>;
    expect(schemaAt(shape, "number.portIn.msisdn")!.safeParse(undefined).success).toBe(true);
    expect(schemaAt(shape, "number.portIn.transferPin")!.safeParse(undefined).success).toBe(true);
    expect(schemaAt(shape, "number.portIn.transferPin", true)!.safeParse(undefined).success).toBe(false);
    // Optional by its own schema: the input's rule across the group says a number is needed.
    expect(schemaAt(shape, "number.msisdn", true)!.safeParse(undefined).success).toBe(true);
    expect(schemaAt(shape, "sim.simType")!.safeParse(undefined).success).toBe(false);
    expect(schemaAt(shape, "planId")!.safeParse(undefined).success).toBe(false);
  });
});
