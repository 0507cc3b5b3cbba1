import type { z } from "zod";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { accountsResource } from "../../src/resources/accounts";
import { ActionDialog, schemaAt } from "../../src/components/actions/ActionDialog";
import { prunedValues } from "../../src/components/actions/prunedValues";
import { renderWithRefine } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Add a line (issue 28): its input is nested (number.msisdn, sim.address), and the engine's dialog
// draws it from the declaration alone: a dotted field is a path in the form and in the body.
const account = {
  id: "66666666-6666-4666-8666-666666666666",
  ownerUid: "demo-alex",
  name: "Alex Rivera",
  type: "prepaid",
  status: "active",
};

describe("the add-line dialog", () => {
  it("asks for the nested fields by their labels, and the delivery address only for a SIM card by post", async () => {
    renderWithRefine(
      <ActionDialog
        resource={accountsResource}
        name="add-line"
        action={accountsResource.actions!["add-line"]!}
        record={account}
        open
        onClose={() => undefined}
      />,
      { identity: { uid: "demo-alex", role: "subscriber" } },
    );
    expect(await screen.findByLabelText("New number")).toBeTruthy();
    expect(screen.getByLabelText("Transfer PIN from your carrier")).toBeTruthy();
    expect(screen.queryByText("Delivery address")).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByLabelText("SIM"));
    await user.click(await screen.findByTitle("Physical SIM"));
    await waitFor(() => expect(screen.getByText("Delivery address")).toBeTruthy());
  });

  it("sends nested values without the groups left empty", () => {
    expect(
      prunedValues({
        planId: "p",
        number: { msisdn: "+12025551000", portIn: { msisdn: "", carrierAccount: undefined } },
        sim: { simType: "esim", address: { line1: "", city: null } },
        reason: "",
      }),
    ).toEqual({ planId: "p", number: { msisdn: "+12025551000" }, sim: { simType: "esim" } });
  });
});

describe("the fields of an optional group", () => {
  it("are optional in the form (the port-in details are not asked for with a new number); a required group's are not", () => {
    const shape = accountsResource.actions!["add-line"]!.input!.shape as Record<string, z.ZodType>;
    expect(schemaAt(shape, "number.portIn.msisdn")!.safeParse(undefined).success).toBe(true);
    expect(schemaAt(shape, "number.portIn.transferPin")!.safeParse(undefined).success).toBe(true);
    expect(schemaAt(shape, "sim.simType")!.safeParse(undefined).success).toBe(false);
    expect(schemaAt(shape, "planId")!.safeParse(undefined).success).toBe(false);
  });
});
