import { z } from "zod";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import dayjs from "dayjs";
import { describe, expect, it, vi } from "vitest";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import { pickerItemProps } from "../../src/components/pickerItemProps";
import { idSchema, isoDate, moneySchema } from "../../src/resources/common";
import type { ActionSpec, ResourceDefinition } from "../../src/resources/define";
import { linesResource } from "../../src/resources/lines";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Issue 29: a date input of an action dialog sent the picker's dayjs object (JSON made it a date-time),
// so every date was refused. An action declared with a date (one nested, one shown only on an
// answer), a money and a reference input: each is sent as the API takes it, to the quote and the action.
const PLAN = "77777777-7777-4777-8777-777777777777";
const buyCover: ActionSpec = {
  label: "Buy cover",
  preview: true,
  input: z.object({
    planId: idSchema,
    price: moneySchema,
    trip: z.object({ startsOn: isoDate, endsOn: isoDate.optional() }),
  }),
  inputFields: {
    planId: { label: "fields.plan", kind: "reference", reference: { resource: "plans" } },
    price: { label: "fields.price", kind: "money" },
    "trip.startsOn": { label: "Starts on", kind: "date" },
    // Shown once a plan is picked: a field inside `onlyWhen` is converted alike.
    "trip.endsOn": { label: "Ends on", kind: "date", onlyWhen: { planId: [PLAN] } },
  },
};
const resource = {
  ...linesResource,
  actions: { ...linesResource.actions, "buy-cover": buyCover },
} as ResourceDefinition;
const line = { id: "88888888-8888-4888-8888-888888888888", msisdn: "+13015550142", status: "active" };
const plans = [
  { id: PLAN, name: "Europe cover", kind: "prepaid", status: "active" },
  { id: "99999999-9999-4999-8999-999999999999", name: "World cover", kind: "prepaid", status: "active" },
];
const QUOTE = { summary: "Cover quoted", lines: [] };

/** The body of the request sent to `suffix`, as JSON carries it (a dayjs object becomes a date-time). */
const bodySentTo = (custom: ReturnType<typeof vi.fn>, suffix: string) => {
  const request = custom.mock.calls.map(([r]) => r as SentRequest).find((r) => r.url?.endsWith(suffix));
  return request ? (JSON.parse(JSON.stringify(request.payload)) as unknown) : null;
};

describe("an action dialog with date, money and reference inputs", () => {
  it("sends a date as YYYY-MM-DD, money in cents and a reference as its id, to the quote and the action alike", async () => {
    const custom = vi.fn(({ url }: { url: string }) =>
      Promise.resolve({ data: url.endsWith("/preview") ? QUOTE : line }),
    );
    const getList = vi.fn(({ resource: name }: { resource: string }) =>
      Promise.resolve(name === "plans" ? { data: plans, total: plans.length } : { data: [], total: 0 }),
    );
    renderWithRefine(
      <ActionDialog resource={resource} name="buy-cover" action={buyCover} record={line} open onClose={() => {}} />,
      { identity: { uid: "care", role: "agent" }, data: { custom, getList } },
    );
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByLabelText("Plan"));
    await user.click(await screen.findByTitle("Europe cover"));
    // Typed at once, not key by key: typing into three inputs one key at a time takes seconds in jsdom.
    fireEvent.change(screen.getByLabelText("Price"), { target: { value: "12.50" } });
    const pickDay = async (label: string, day: string) => {
      const input = await screen.findByLabelText(label);
      await user.click(input);
      fireEvent.change(input, { target: { value: day } });
      fireEvent.keyDown(input, { key: "Enter" });
      await waitFor(() => expect(input).toHaveProperty("value", day));
    };
    await pickDay("Starts on", "2026-12-01");
    await pickDay("Ends on", "2026-12-14");

    const expected = {
      planId: PLAN,
      price: { amount: 1250, currency: "USD" },
      trip: { startsOn: "2026-12-01", endsOn: "2026-12-14" },
    };
    await user.click(screen.getByRole("button", { name: "Review" }));
    await waitFor(() => {
      // The refusal the picker's object met: at the field, so nothing was sent.
      expect(screen.queryAllByText(/a date as YYYY-MM-DD/).map((e) => e.textContent)).toEqual([]);
      expect(bodySentTo(custom, "/actions/buy-cover/preview")).not.toBeNull();
    });
    expect(bodySentTo(custom, "/actions/buy-cover/preview")).toEqual(expected);

    expect(await screen.findByText("Cover quoted")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Buy cover" }));
    await waitFor(() => expect(bodySentTo(custom, "/actions/buy-cover")).not.toBeNull());
    expect(bodySentTo(custom, "/actions/buy-cover")).toEqual(expected);
    // Four inputs, a quote and the action in one dialog: longer than most under a shared machine's load.
  }, 30_000);
});

describe("the form's value of a date picker", () => {
  it("is the day as YYYY-MM-DD for a date, ISO 8601 for a date-time, null when cleared; other kinds are left alone", () => {
    const date = pickerItemProps("date");
    const datetime = pickerItemProps("datetime");
    expect(date.normalize?.(dayjs("2026-12-01"))).toBe("2026-12-01");
    expect(datetime.normalize?.(dayjs("2026-12-01T10:30:00.000Z"))).toBe("2026-12-01T10:30:00.000Z");
    expect(date.normalize?.(null)).toBeNull();
    expect(date.getValueProps?.("2026-12-01").value?.format("YYYY-MM-DD")).toBe("2026-12-01");
    expect(date.getValueProps?.(null).value).toBeUndefined();
    expect(pickerItemProps("money")).toEqual({});
  });
});
