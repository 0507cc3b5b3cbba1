import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signInWithPassword } from "../support/testBackend";
import { signedInPage, actionDialog as dialog } from "../support/portalPages";
import { verifyCallerOverHttp } from "../support/callerVerification";
import { objectContaining } from "../support/matchers";

// Issue 12, items 4 and 6 in Chromium at a 1280 px desk: an agent's credit above the bound waits in
// the approvals queue until the admin approves it there; the admin's price-change dialog shows how
// many lines the change touches before anything is changed.
const baseUrl = inject("baseUrl");
const PASSWORD = "Demo-2026!";
const POLL = { timeout: 20_000, interval: 200 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (email: string, locale = "en-US") => signedInPage(browser, baseUrl, email, { width: 1280, locale });

async function api<T>(path: string, as: string): Promise<T> {
  const headers = {
    authorization: `Bearer ${await signInWithPassword(as, PASSWORD)}`,
    "x-operator": "ATT",
    "x-app-version": "3.2.1",
  };
  const res = await fetch(`${baseUrl}/api/v1${path}`, { headers });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

test("an agent's credit above the bound waits; the admin approves it from the approvals queue", async () => {
  const reason = `e2e goodwill, network outage ${Date.now()}`;
  const [account] = (
    await api<{ data: { id: string; name: string }[] }>("/accounts?q=Jordan%20Garcia", "admin@att.example")
  ).data;
  // The caller is verified to the agent first (issue 27): an admin's override, as the back office would.
  await verifyCallerOverHttp(baseUrl, account!.id);
  const agent = await signedIn("agent@att.example");
  await agent.goto(`${baseUrl}/accounts/show/${account!.id}`);
  await agent.getByRole("button", { name: "Credit" }).click();
  const credit = dialog(agent, "Credit");
  await credit.getByLabel("Amount").fill("75.00");
  await credit.getByLabel("Reason").fill(reason);
  await credit.getByRole("button", { name: "Credit" }).click();
  await agent.getByText(/Credit: above your limit, so it waits for an administrator's approval/).waitFor();
  // The agent follows their own request.
  await agent.goto(`${baseUrl}/approvals`);
  const agentsRow = agent.getByRole("row").filter({ hasText: reason });
  await agentsRow.getByText("Pending").waitFor();
  expect(await agentsRow.getByRole("button", { name: "Approve" }).count()).toBe(0);
  await agent.context().close();

  const admin = await signedIn("admin@att.example");
  await admin.goto(`${baseUrl}/approvals`);
  const row = admin.getByRole("row").filter({ hasText: reason });
  await row.getByText("$75.00").waitFor();
  await row.getByText(account!.name).waitFor();
  expect(await accessibilityProblems(admin)).toEqual([]);
  await row.getByRole("button", { name: "Approve" }).click();
  const approve = dialog(admin, "Approve");
  await approve.getByLabel("Reason").fill("checked the outage report");
  expect(await accessibilityProblems(admin)).toEqual([]);
  await approve.getByRole("button", { name: "Approve" }).click();
  await admin.getByText("Approve: done.").waitFor();
  // Pending only: the decided request leaves the queue; with every status it shows as approved.
  await expect.poll(() => admin.getByRole("row").filter({ hasText: reason }).count(), POLL).toBe(0);
  await admin.getByLabel("Pending only").click();
  await admin.getByRole("row").filter({ hasText: reason }).getByText("Approved").waitFor();
  await admin.context().close();

  const entries = await api<{ data: { kind: string; amount: { amount: number }; reason: string }[] }>(
    `/ledger-entries?filter[accountId]=${account!.id}`,
    "admin@att.example",
  );
  expect(entries.data.filter((e) => e.reason === reason)).toEqual([
    objectContaining({ kind: "adjustment", amount: objectContaining({ amount: 7500 }) }),
  ]);
});

test("the admin's price-change dialog previews how many lines the change touches, in Spanish too", async () => {
  const plans = await api<{ data: { id: string; code: string; name: string }[] }>(
    "/plans?pageSize=100",
    "admin@att.example",
  );
  const plan = plans.data.find((p) => p.code === "POST_10GB")!;
  const onPlan = await api<{ data: { status: string }[] }>(
    `/lines?filter[planId]=${plan.id}&pageSize=100`,
    "admin@att.example",
  );
  const lines = { total: onPlan.data.filter((l) => l.status === "active" || l.status === "suspended").length };

  const admin = await signedIn("admin@att.example");
  await admin.goto(`${baseUrl}/plans/show/${plan.id}`);
  await admin.getByRole("button", { name: "Retire" }).waitFor();
  await admin.getByRole("button", { name: "Change price" }).click();
  const change = dialog(admin, "Change price");
  await change.getByLabel("New monthly price").fill("47.00");
  await change.getByRole("button", { name: "Review" }).click();
  const quote = admin.getByTestId("action-quote");
  await quote.getByText(`${lines.total} lines pay the new price of ${plan.name}`, { exact: false }).waitFor();
  await quote.getByText("$47.00").waitFor();
  expect(await accessibilityProblems(admin)).toEqual([]);
  // Nothing has changed yet: the admin cancels.
  await change.getByRole("button", { name: "Go back" }).click();
  await admin.context().close();

  const es = await signedIn("admin@att.example", "es-ES");
  await es.goto(`${baseUrl}/plans/show/${plan.id}`);
  await es.getByRole("button", { name: "Cambiar precio" }).click();
  const cambio = dialog(es, "Cambiar precio");
  await cambio.getByLabel("Nuevo precio mensual").fill("47.00");
  await cambio.getByRole("button", { name: /Revisar/ }).click();
  await es
    .getByTestId("action-quote")
    .getByText(`${lines.total} líneas pagan el nuevo precio`, { exact: false })
    .waitFor();
  await es.context().close();
});
