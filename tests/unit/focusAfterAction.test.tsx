import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useOne } from "@refinedev/core";
import { Provider as MotionProvider } from "rc-motion";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RecordActions } from "../../src/components/actions/RecordActions";
import { keepFocusOnPage } from "../../src/components/focusKeeper";
import { linesResource, type Line } from "../../src/resources/lines";
import { renderWithRefine } from "../support/renderWithRefine";
import { staffLine } from "./fixtures/staffLine";

vi.mock("../../src/providers/session", async (original) => ({
  ...(await original<object>()),
  currentIdToken: () => Promise.resolve("id-token"),
}));

// A staff walk: confirming an action whose button is then gone (Lock number becomes Unlock number,
// Suspend becomes Restore) left keyboard focus on <body>. The portal's focus keeper (installed once by
// PortalLayout) now gives it to what took the trigger's place, or else to the page's main heading.
let locked = false;

function LinePage({ only }: { only: readonly string[] }) {
  const { result } = useOne<Line>({ resource: "lines", id: staffLine().id });
  return (
    <main>
      <h1>(202) 555-0102</h1>
      <div>{result && <RecordActions resource={linesResource} record={result} only={only} />}</div>
    </main>
  );
}

/**
 * The line's actions as the page shows them. With `motion` off (a visitor who asked for less motion,
 * as every e2e browser does) a dialog closes at once and gives focus back to its trigger before the
 * record changes; with it on, jsdom never ends the leave animation and the trigger goes first.
 */
function renderLine(only: readonly string[], { motion = true } = {}) {
  const custom = vi.fn(({ url }: { url: string }) => {
    if (url.endsWith("/actions/lock-number")) locked = true;
    return Promise.resolve({ data: { ok: true } });
  });
  renderWithRefine(
    <MotionProvider motion={motion}>
      <LinePage only={only} />
    </MotionProvider>,
    {
      identity: { uid: "demo-alex", role: "subscriber" },
      data: { getOne: vi.fn(() => Promise.resolve({ data: staffLine({ numberLocked: locked }) })), custom },
    },
  );
  return custom;
}

/** Opens Lock number from the keyboard's point of view (the trigger has focus), and answers the dialog with `answer`. */
async function lockNumber(answer: "Lock number" | "Go back") {
  const user = userEvent.setup({ delay: null });
  const trigger = await screen.findByRole("button", { name: "Lock number" });
  await user.click(trigger);
  const dialog = await screen.findByRole("dialog");
  await user.click(
    [...dialog.querySelectorAll("button")].find((b) => b.textContent === answer) ?? screen.getByText(answer),
  );
  return trigger;
}

let stop: () => void;
beforeEach(() => {
  locked = false;
  stop = keepFocusOnPage();
});
afterEach(() => stop());

describe("focus after an action dialog whose trigger is gone", () => {
  for (const motion of [true, false])
    it(`goes to the button that took the trigger's place (Lock number → Unlock number; motion ${motion ? "on" : "off"})`, async () => {
      const custom = renderLine(["lock-number", "unlock-number"], { motion });
      await lockNumber("Lock number");
      await waitFor(() => expect(custom).toHaveBeenCalled());
      const unlock = await screen.findByRole("button", { name: "Unlock number" });
      await waitFor(() => expect(document.activeElement).toBe(unlock));
      expect(screen.queryByRole("button", { name: "Lock number" })).toBeNull();
    });

  it("goes to the page's main heading when nothing took its place", async () => {
    renderLine(["lock-number"], { motion: false });
    await lockNumber("Lock number");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Lock number" })).toBeNull());
    const heading = screen.getByRole("heading", { level: 1 });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.tabIndex).toBe(-1); // focusable by script, not a stop of the Tab order
  });

  it("is left to the dialog when its trigger is still there: Go back returns to it", async () => {
    const custom = renderLine(["lock-number", "unlock-number"], { motion: false });
    const trigger = await lockNumber("Go back");
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(custom).not.toHaveBeenCalled();
  });
});
