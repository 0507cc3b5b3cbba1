import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { addMessages } from "../../src/i18n";
import { toHttpError } from "../../src/providers/apiClient";
import { idSchema, isoDate, isoDateTime } from "../../src/resources/common";
import { defineResource, expr, type Role } from "../../src/resources/define";
import { todayUtc } from "../../src/resources/expressions/declaration";
import { formatDate } from "../../src/components/format";
import { RecordActions } from "../../src/components/actions/RecordActions";
import { useResourceAction } from "../../src/components/actions/useResourceAction";
import { ResourceFormPage } from "../../src/pages/ResourceFormPage";
import { renderWithRefine, type SentRequest } from "../support/renderWithRefine";

// A priced product declared as a product owner would (not one of the portal's): pet cover for a line,
// starting today by default, a check across fields, a date computed from two others, a charge on
// create (so the form quotes first) and a cancel allowed to subscribers only before the start.
const KINDS = ["dog", "cat"] as const;
const petCover = defineResource({
  name: "pet-cover",
  label: "test.pet.label",
  icon: "HeartOutlined",
  schema: z.object({
    id: idSchema,
    lineId: idSchema,
    kind: z.enum(KINDS),
    startsOn: isoDate,
    days: z.number().int().min(1).max(90),
    endsOn: isoDate,
    status: z.enum(["active", "cancelled"]),
    createdAt: isoDateTime,
  }),
  recordTitle: "kind",
  fields: {
    lineId: { label: "test.pet.line", kind: "reference", reference: { resource: "lines" } },
    kind: { label: "test.pet.kind", kind: "enum", options: KINDS, labels: "test.pet.kinds" },
    startsOn: { label: "test.pet.startsOn", kind: "date" },
    days: { label: "test.pet.days", kind: "number" },
    endsOn: { label: "test.pet.endsOn", kind: "date" },
    status: { label: "test.pet.status", kind: "enum", options: ["active", "cancelled"] },
  },
  list: {
    columns: ["kind", "startsOn"],
    defaultSort: [{ field: "startsOn", order: "desc" }],
    sortable: [],
    filters: {},
  },
  show: ["lineId", "kind", "startsOn", "days", "endsOn", "status"],
  form: { create: ["lineId", "kind", "startsOn", "days"], edit: [] },
  defaults: { startsOn: expr("today()"), status: "active" },
  computed: { endsOn: expr("startsOn + days - 1") },
  checks: [{ rule: "kind != 'cat' or days <= 30", field: "days", message: "test.pet.catsAMonth" }],
  onCreate: [{ charge: { account: "lineId", amount: "money(1.40) * days", label: "test.pet.charge" } }],
  actions: {
    cancel: {
      label: "test.pet.cancel",
      set: { status: "cancelled" },
      when: { status: ["active"] },
      allowedIf: [
        { rule: "role != 'subscriber' or startsOn > today()", field: "startsOn", message: "test.pet.started" },
      ],
    },
  },
  access: { create: { subscriber: "own", agent: "all" }, cancel: { subscriber: "own", agent: "all" } },
  source: "backend",
  audit: true,
});

addMessages({
  en: {
    "test.pet.label": "Pet cover",
    "test.pet.line": "Line",
    "test.pet.kind": "Pet",
    "test.pet.kinds.dog": "Dog",
    "test.pet.kinds.cat": "Cat",
    "test.pet.startsOn": "Starts on",
    "test.pet.days": "Days",
    "test.pet.endsOn": "Ends on",
    "test.pet.status": "Status",
    "test.pet.catsAMonth": "Cats are covered for 30 days at most.",
    "test.pet.charge": "Pet cover, {{days}} days",
    "test.pet.quote": "Pet cover for your line",
    "test.pet.cancel": "Cancel cover",
    "test.pet.started": "The cover has started.",
  },
  es: {},
});

const LINE = "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f10";
const quote = {
  summary: "test.pet.quote",
  lines: [{ label: "test.pet.charge", params: { days: 10 }, amount: { amount: 1400, currency: "USD" } }],
  total: { amount: 1400, currency: "USD" },
};

/** The day `days` after today (UTC), as records hold days. */
const dayFromToday = (days: number) => {
  const day = new Date(`${todayUtc()}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
};

function renderCreate(custom: (request: SentRequest) => Promise<unknown>) {
  const data = renderWithRefine(null, {
    identity: { uid: "u1", role: "subscriber" },
    data: {
      getList: vi.fn(() => Promise.resolve({ data: [{ id: LINE, msisdn: "2025550101" }], total: 1 })),
      custom: vi.fn(custom),
      create: vi.fn(() => Promise.resolve({ data: { id: "p1" } })),
    },
    path: "/pet-cover/create",
    resources: [{ name: "pet-cover", create: "/pet-cover/create", show: "/pet-cover/show/:id" }],
    routes: {
      "/pet-cover/create": <ResourceFormPage resource={petCover} action="create" />,
      "/pet-cover/show/:id": <p>record page</p>,
    },
  });
  return data;
}

async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole("combobox", { name: label }));
  fireEvent.click(await screen.findByTitle(option));
}

async function typeDays(text: string) {
  const days = screen.getByLabelText<HTMLInputElement>("Days");
  const user = userEvent.setup({ delay: null });
  await user.clear(days);
  await user.type(days, text);
  await user.tab(); // the form checks a field when it is left
}

const buyButton = () => screen.getByRole("button", { name: /Buy/ });

describe("the create form of a priced product", () => {
  it("starts at today, checks across fields, shows the computed end and buys at the quoted price", async () => {
    const data = renderCreate(() => Promise.resolve({ data: quote }));
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>("Starts on").value).toBe(todayUtc()));
    expect(buyButton()).toHaveProperty("disabled", true);

    await pick("Pet", "Cat");
    await typeDays("45");
    await screen.findByText("Cats are covered for 30 days at most.");

    // The check reads the pet too: a dog may have 45 days, and the message goes without touching Days.
    await pick("Pet", "Dog");
    await waitFor(() => expect(screen.queryByText("Cats are covered for 30 days at most.")).toBeNull());

    await pick("Pet", "Cat");
    await typeDays("10");
    const computed = await screen.findByTestId("computed-values");
    await waitFor(() => expect(within(computed).getByText(formatDate(dayFromToday(9)))).toBeTruthy());
    expect(within(computed).getByText("Ends on")).toBeTruthy();

    const shown = await screen.findByTestId("action-quote");
    expect(within(shown).getByText("Pet cover, 10 days")).toBeTruthy();
    await waitFor(() => expect(buyButton()).toHaveProperty("disabled", false));
    expect(buyButton().textContent).toContain("Buy · $14.00");

    // Only complete, valid values are quoted, with the body the form sends on submit.
    const sent = data.custom.mock.calls.map(([request]) => request);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(request).toMatchObject({ url: "/api/v1/pet-cover/preview", method: "post" });
    expect(sent.at(-1)!.payload).toEqual({ lineId: LINE, kind: "cat", startsOn: todayUtc(), days: 10 });
    // Never the values the check refused (a cat for 45 days); a dog for 45 days was a fine thing to quote.
    const asked = sent.map((request) => request.payload as { kind: string; days: number });
    expect(asked.filter(({ kind, days }) => kind === "cat" && days > 30)).toEqual([]);

    fireEvent.click(buyButton());
    await waitFor(() => expect(data.create).toHaveBeenCalledTimes(1));
    expect((data.create.mock.calls[0] as unknown as [SentRequest])[0].variables).toEqual({
      lineId: LINE,
      kind: "cat",
      startsOn: todayUtc(),
      days: 10,
    });
  });

  it("shows a refused quote's field error at its field and a short balance above the button", async () => {
    const custom = vi.fn((request: SentRequest) =>
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- Refine's HttpError is a plain object, as the api client rejects with it
      Promise.reject(
        (request.payload as { days: number }).days === 5
          ? toHttpError(400, {
              detail: "The body is not valid",
              errors: [{ path: "days", message: "not on this line" }],
            })
          : toHttpError(422, {
              detail: "The balance ($2.00) is short by $5.00 for this $7.00.",
              errors: [{ path: "amount", message: "short by $5.00" }],
            }),
      ),
    );
    renderCreate(custom);
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>("Starts on").value).toBe(todayUtc()));
    await pick("Pet", "Dog");
    await typeDays("5");
    await screen.findByText("not on this line");
    await typeDays("6");
    await screen.findByText(/short by \$5\.00 for this \$7\.00/);
    expect(buyButton()).toHaveProperty("disabled", true);
  });
});

describe("an action's allowedIf in the browser", () => {
  const record = (startsOn: string) => ({
    id: `p-${startsOn}`,
    lineId: LINE,
    kind: "dog",
    startsOn,
    days: 10,
    endsOn: startsOn,
    status: "active",
    createdAt: "2026-01-01T00:00:00.000Z",
  });

  function renderBoth(role: Role) {
    renderWithRefine(
      <>
        <div data-testid="started">
          <RecordActions resource={petCover} record={record(todayUtc())} />
        </div>
        <div data-testid="later">
          <RecordActions resource={petCover} record={record(dayFromToday(3))} />
        </div>
      </>,
      { identity: { uid: "u1", role }, can: () => true },
    );
  }

  it("hides a subscriber's cancel once the cover has started, and shows it before", async () => {
    renderBoth("subscriber");
    await within(screen.getByTestId("later")).findByRole("button", { name: "Cancel cover" });
    expect(within(screen.getByTestId("started")).queryByRole("button")).toBeNull();
  });

  /** What the hook every page runs actions through says of the cancel. */
  function Applies({ startsOn }: { startsOn: string }) {
    const cancel = useResourceAction(petCover, "cancel", record(startsOn));
    return <p>{`${startsOn}: ${cancel.applies ? "applies" : "does not apply"}`}</p>;
  }

  it("says in useResourceAction too that the cancel applies only before the start, for a subscriber", async () => {
    renderWithRefine(
      <>
        <Applies startsOn={todayUtc()} />
        <Applies startsOn={dayFromToday(3)} />
      </>,
      { identity: { uid: "u1", role: "subscriber" } },
    );
    await screen.findByText(`${dayFromToday(3)}: applies`);
    expect(screen.getByText(`${todayUtc()}: does not apply`)).toBeTruthy();
  });

  it("offers staff the cancel on any cover", async () => {
    renderBoth("agent");
    await within(screen.getByTestId("later")).findByRole("button", { name: "Cancel cover" });
    await within(screen.getByTestId("started")).findByRole("button", { name: "Cancel cover" });
  });
});
