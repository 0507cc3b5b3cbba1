import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { E2E_BACKEND_LOG_DIR } from "../support/backendLogs";
import { launchChromium } from "../support/browser";
import { samsLineActive } from "../support/samsLine";
import { actionDialog as dialog, pickOption, signedInPage } from "../support/portalPages";

// Verify before disclosing (issue 27 item 2) at a 1280 px desk: the agent opens sam's 360 and sees
// only his name, masked contact details and tickets; sends a code by SMS, types what sam reads out
// (locally an SMS "arrives" in the backend's log: the outbox's delivery writes each message there,
// with the number masked), and his sections open; then suspends sam's line.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 90_000, interval: 500 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const logText = () =>
  existsSync(E2E_BACKEND_LOG_DIR)
    ? readdirSync(E2E_BACKEND_LOG_DIR)
        .filter((f) => f.endsWith(".log"))
        .map((f) => readFileSync(join(E2E_BACKEND_LOG_DIR, f), "utf8"))
        .join("\n")
    : "";

/** The newest code an SMS to the number ending in `lastFour` carried, once the outbox sent it (its job runs every minute). */
async function smsCodeTo(lastFour: string, before: string): Promise<string> {
  let code = "";
  await expect
    .poll(() => {
      const sent = [
        ...logText().matchAll(new RegExp(`\\[outbox\\] sms to •••${lastFour} \\(en\\):.*?code is (\\d{6})`, "g")),
      ];
      code = sent.at(-1)?.[1] ?? "";
      return code && code !== before ? code : "";
    }, POLL)
    .toMatch(/^\d{6}$/);
  return code;
}

test("an agent verifies sam by SMS code and suspends his line", { timeout: 240_000 }, async () => {
  await samsLineActive(baseUrl);
  const codeBefore = [...logText().matchAll(/\[outbox\] sms to •••0103 \(en\):.*?code is (\d{6})/g)].at(-1)?.[1] ?? "";
  const agent = await signedInPage(browser, baseUrl, "agent@att.example", { width: 1280, height: 800 });
  await agent.goto(`${baseUrl}/subscribers?q=0103`);
  await agent.getByTestId("subscriber-result").filter({ hasText: "Sam Chen" }).click();
  await agent.waitForURL(/\/subscribers\/show\//);
  await agent.getByTestId("subscriber-name").getByText("Sam Chen").waitFor();
  // Before verification: the name, masked contact details, and "verify first" instead of his lines.
  await agent.getByText("s•••@example.com").waitFor();
  await agent.getByText("Verify the caller to see this.").first().waitFor();
  expect(await agent.getByRole("button", { name: "Suspend" }).count()).toBe(0);
  expect(await accessibilityProblems(agent)).toEqual([]);

  await agent.getByTestId("verify-send-code").click();
  await agent.getByTestId("verify-code").waitFor();
  const code = await smsCodeTo("0103", codeBefore);
  await agent.getByTestId("verify-code").fill(code);
  await agent.getByRole("button", { name: "Check code" }).click();
  await agent.getByTestId("caller-verified").waitFor();
  await agent.getByText("sam@example.com").waitFor();
  expect(await accessibilityProblems(agent)).toEqual([]);

  // His lines open: suspend the line, with a reason.
  await agent.getByRole("button", { name: "Suspend" }).click();
  await pickOption(agent, dialog(agent, "Suspend"), "Suspension reason", "Lost");
  await dialog(agent, "Suspend").getByLabel("Reason", { exact: true }).fill("Verified caller lost the phone");
  await dialog(agent, "Suspend").getByRole("button", { name: "Review" }).click();
  await dialog(agent, "Suspend").getByRole("button", { name: "Suspend" }).click();
  await agent.getByTestId("line-status").getByText("Suspended").waitFor();
  await agent.context().close();
  // Back as it was, for the other files.
  await samsLineActive(baseUrl);
});
