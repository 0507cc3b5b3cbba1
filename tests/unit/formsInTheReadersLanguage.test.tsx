import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale, translate as t, type Locale } from "../../src/i18n";
import { accountsResource } from "../../src/resources/accounts";
import { ticketsResource } from "../../src/resources/tickets";
import type { ComponentProps } from "react";
import { ActionDialog } from "../../src/components/actions/ActionDialog";
import { renderWithRefine } from "../support/renderWithRefine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// Issue 25: a Spanish page fell back to English exactly where people get stuck — the messages of a
// form refused empty or wrong (declared "at least 10 characters", generated "Enter How many vouchers.").
// Each declared form is refused twice, empty and with wrong values, and nothing it then says may be
// in the other language. The dictionaries' tests compare keys; this reads what is on the screen.
const ENGLISH = [
  /\brequired\b/i,
  /\bat least\b/i,
  /\bat most\b/i,
  /\bcharacters\b/i,
  /\benter\b/i,
  /\brecords?\b/i,
  /\bmust\b/i,
  /\binvalid\b/i,
  /\btoo (small|big|long)\b/i,
  /\bexpected\b/i,
  /\bfill\b/i,
  /\bmore than\b/i,
  /\bgive\b/i,
];
const SPANISH = [
  /\bobligatori[oa]\b/i,
  /\bal menos\b/i,
  /\bcomo máximo\b/i,
  /\bcaracteres\b/i,
  /\bindica\b/i,
  /\bregistro\b/i,
  /\bdebe\b/i,
  /\binválid[oa]\b/i,
  /\brellena\b/i,
  /\bdemasiado\b/i,
  /\bmás de\b/i,
];
const FOREIGN: Record<Locale, RegExp[]> = { es: ENGLISH, en: SPANISH };

const account = {
  id: "11111111-1111-4111-8111-111111111111",
  ownerUid: "demo-alex",
  name: "Alex Kim",
  type: "prepaid",
  status: "active",
  balance: { amount: 1500, currency: "USD" },
};
const ticket = { id: "22222222-2222-4222-8222-222222222222", subject: "No signal", status: "in_progress" };

interface Case {
  title: string;
  resource: ComponentProps<typeof ActionDialog>["resource"];
  name: string;
  record: ComponentProps<typeof ActionDialog>["record"];
  role: "subscriber" | "agent";
  /** Wrong values typed into the open dialog (fields found by their label in the page's language). */
  wrong: (user: ReturnType<typeof userEvent.setup>) => Promise<void>;
}

const typeInto = async (user: ReturnType<typeof userEvent.setup>, label: string, text: string) => {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  await user.click(input);
  await user.paste(text);
  fireEvent.blur(input);
};

const CASES: Case[] = [
  {
    title: "a subscriber redeems a voucher",
    resource: accountsResource,
    name: "redeem-voucher",
    record: account,
    role: "subscriber",
    wrong: (user) => typeInto(user, t("fields.voucherCode"), "ab"),
  },
  {
    title: "an agent adjusts a balance, with a reason",
    resource: accountsResource,
    name: "adjust",
    record: account,
    role: "agent",
    wrong: async (user) => {
      await typeInto(user, t("fields.amount"), "250000");
      await typeInto(user, t("actions.reason"), "no");
    },
  },
  {
    title: "a subscriber replies on a ticket",
    resource: ticketsResource,
    name: "reply",
    record: ticket,
    role: "subscriber",
    wrong: (user) => typeInto(user, t("fields.ticketMessage"), "x"),
  },
];

/** What the dialog says once the form has refused what it was given. */
async function refusedText(label: string): Promise<string> {
  fireEvent.click(screen.getByRole("button", { name: label }));
  await waitFor(() => expect(document.querySelectorAll(".ant-form-item-explain-error").length).toBeGreaterThan(0));
  // Each piece of text apart: textContent runs a label into its error ("CódigoEnter"), hiding a word.
  const walker = document.createTreeWalker(screen.getByRole("dialog"), NodeFilter.SHOW_TEXT);
  const pieces: string[] = [];
  while (walker.nextNode()) pieces.push(walker.currentNode.textContent ?? "");
  const text = pieces.join(" ");
  expect(text, "a dictionary key on the screen").not.toMatch(/\b(validation|form|fields|actions|resources)\.\w+/);
  return text;
}

describe.each(["es", "en"] as const)("a declared form refused in %s", (locale) => {
  afterEach(() => act(() => setLocale("en", { remember: false })));

  it.each(CASES)("$title: every message is in the page's language", async ({ resource, name, record, role, wrong }) => {
    act(() => setLocale(locale, { remember: false }));
    const action = resource.actions![name]!;
    const custom = vi.fn(() => Promise.resolve({ data: {} }));
    renderWithRefine(
      <ActionDialog resource={resource} name={name} action={action} record={record} open onClose={() => undefined} />,
      { identity: { uid: "demo-alex", role }, data: { custom } },
    );
    const label = t(action.label);
    await screen.findByRole("dialog");

    const empty = await refusedText(label);
    for (const word of FOREIGN[locale]) expect(empty, `empty form, ${word}`).not.toMatch(word);

    await wrong(userEvent.setup({ delay: null }));
    const wrongText = await refusedText(label);
    for (const word of FOREIGN[locale]) expect(wrongText, `wrong values, ${word}`).not.toMatch(word);
    expect(custom).not.toHaveBeenCalled();
  });
});
