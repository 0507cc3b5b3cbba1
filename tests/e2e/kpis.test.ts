import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signedInPage } from "../support/portalPages";

// The admins' KPIs (issue 12, item 8) in Chromium against the real backend: the admin opens them from
// the menu, sees the figures, the charts and their accessible tables; a subscriber has no such entry.
const baseUrl = inject("baseUrl");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (email: string, width: number) => signedInPage(browser, baseUrl, email, { width, height: 900 });

test("the admin reads the business over a period; a subscriber is not offered it", async () => {
  const admin = await signedIn("admin@att.example", 1280);
  await admin.getByRole("menuitem", { name: "Business at a glance" }).click();
  await admin.getByRole("heading", { name: "Business at a glance" }).waitFor();
  const active = admin
    .locator(".ant-statistic")
    .filter({ hasText: "Active lines now" })
    .locator(".ant-statistic-content-value");
  await active.waitFor();
  expect(Number((await active.innerText()).replace(/\D/g, ""))).toBeGreaterThan(0);
  await admin.getByTestId("kpi-lines-chart").locator("canvas").first().waitFor();
  await admin.getByTestId("kpi-money-chart").locator("canvas").first().waitFor();
  // The accessible table under the chart has a row per day of the default 30-day period.
  expect(await admin.getByRole("table", { name: "New and churned lines per day" }).locator("tbody tr").count()).toBe(
    30,
  );
  await admin.getByRole("cell", { name: "Over 7 days" }).waitFor();
  expect(await accessibilityProblems(admin)).toEqual([]);

  // At a desk width the menu is open beside the page: alex's has his five destinations and not this one.
  const alex = await signedIn("alex@example.com", 1280);
  await alex.getByRole("menuitem", { name: "Account" }).waitFor();
  expect(await alex.getByRole("menuitem", { name: "Business at a glance" }).count()).toBe(0);
  await alex.goto(`${baseUrl}/kpis`);
  await alex.locator(".ant-result-403").waitFor();
  expect(await alex.getByText("Active lines now").count()).toBe(0);
  await admin.context().close();
  await alex.context().close();
}, 120_000);
