import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";
import { verifyCallerOverHttp } from "../support/callerVerification";

// The care desk (issue 27 item 6) in Chromium against the real backend and Auth emulator: the agent
// at a 1280 px desk types Alex's number in the home page's box, lands on the same results as the
// Subscribers page, opens Alex's 360 (the person: both his accounts with their lines), finds the
// line's secondary actions under "More actions" without the row overflowing, and writes a note that
// shows with who wrote it and when.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 20_000, interval: 200 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test("from the home box to Alex's 360 with both accounts, the actions fit, and a note with who and when", async () => {
  // The agent has verified the caller (issue 27; tests/e2e/callerVerification.test.ts walks it): an admin's override here.
  await verifyCallerOverHttp(baseUrl, "0102");
  const agent = await signedInPage(browser, baseUrl, "agent@att.example", { width: 1280, height: 800 });
  const box = agent.getByLabel("Number, name, email, ICCID or account number");
  await box.fill("(202) 555-0102");
  await box.press("Enter");
  await agent.waitForURL(/\/subscribers\?q=/);
  expect(new URL(agent.url()).searchParams.get("q")).toBe("(202) 555-0102");
  // The Subscribers page's own box holds the same search.
  expect(await agent.getByLabel("Search subscribers").inputValue()).toBe("(202) 555-0102");
  await agent.getByTestId("subscriber-result").filter({ hasText: "Alex Rivera" }).click();
  await agent.waitForURL(/\/subscribers\/show\//);
  await agent.getByTestId("subscriber-name").getByText("Alex Rivera").waitFor();

  // The person, not the account: both of Alex's accounts, each with its own line.
  await expect.poll(() => agent.getByTestId("person-account").count(), POLL).toBe(2);
  await agent.getByTestId("person-account-count").getByText("2 accounts").waitFor();
  await agent
    .getByTestId("person-account")
    .filter({ hasText: "Prepaid account" })
    .getByText("(202) 555-0101")
    .waitFor();
  await agent
    .getByTestId("person-account")
    .filter({ hasText: "Postpaid account" })
    .getByText("(202) 555-0102")
    .waitFor();

  // The line's actions fit the desk: Suspend and "More actions" on one line, nothing past the window.
  const postpaid = agent.getByTestId("person-account").filter({ hasText: "Postpaid account" });
  const more = postpaid.getByRole("button", { name: "More actions" });
  await more.waitFor();
  const suspend = postpaid.getByRole("button", { name: "Suspend" });
  const [a, b] = [await suspend.boundingBox(), await more.boundingBox()];
  expect(a!.y).toBe(b!.y);
  expect(b!.x + b!.width).toBeLessThanOrEqual(1280);
  expect(await agent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await more.click();
  await agent.getByRole("menu", { name: "More actions" }).getByRole("menuitem", { name: "Change plan" }).waitFor();
  await agent.keyboard.press("Escape");

  // A note: written on this page, listed first with the agent's name and the time.
  const notes = agent.getByTestId("interaction-notes");
  const text = `Alex asked about the Canada overage (${Date.now()})`;
  await notes.getByLabel("New note").fill(text);
  await notes.getByRole("button", { name: "Add note" }).click();
  const note = notes.getByTestId("interaction-note").first();
  await note.getByText(text).waitFor();
  expect(await note.textContent()).toMatch(/Casey Agent · /);
  expect(await notes.getByLabel("New note").inputValue()).toBe("");
  expect(await accessibilityProblems(agent)).toEqual([]);

  // The other account's 360 is the same person: the note is there too.
  await agent.goto(`${baseUrl}/subscribers?q=0101`);
  await agent.getByTestId("subscriber-result").filter({ hasText: "Alex Rivera" }).click();
  await agent.getByTestId("interaction-notes").getByText(text).waitFor();
  await agent.context().close();
}, 180_000);
