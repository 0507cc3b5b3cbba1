import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { signInWithPassword } from "../support/testBackend";
import { actionDialog, signedInPage } from "../support/portalPages";

// Issue 9 in Chromium at 360 px, on ATT (no card gateway: vouchers are how a prepaid line is topped
// up): alex's home shows the money the ledger holds, and a voucher an admin generated credits his
// prepaid balance once, while a wrong or spent code is refused at its field and changes nothing.
const baseUrl = inject("baseUrl");
const POLL = { timeout: 20_000, interval: 200 };
let browser: Browser;
let alex: Page;

interface Money {
  amount: number;
  currency: string;
}
interface Account {
  id: string;
  type: "prepaid" | "postpaid";
  balance?: Money;
  amountDue?: Money;
}

beforeAll(async () => {
  browser = await launchChromium();
  alex = await signedInPage(browser, baseUrl, "alex@example.com", { width: 360, height: 740 });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

async function api<T>(path: string, as: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${await signInWithPassword(as)}`,
      "x-operator": "ATT",
      "x-app-version": "3.2.1",
      ...(init.body ? { "content-type": "application/json" } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

const dollars = (money: Money) => `$${(money.amount / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
const alexAccounts = async () => (await api<{ data: Account[] }>("/accounts", "alex@example.com")).body.data;

test("alex's home shows his prepaid balance and his postpaid amount due, as the ledger has them", async () => {
  const accounts = await alexAccounts();
  const prepaid = accounts.find((a) => a.type === "prepaid")!;
  const postpaid = accounts.find((a) => a.type === "postpaid")!;
  const money = alex.getByTestId("account-money");
  await expect.poll(() => money.allInnerTexts(), POLL).toEqual(expect.arrayContaining([`Balance: ${dollars(prepaid.balance!)} · Top up`, `Amount due: ${dollars(postpaid.amountDue!)}`]));
  expect(await alex.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("a voucher credits alex's prepaid balance once; a wrong or spent code is refused at its field and changes nothing", async () => {
  const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const batch = await api<{ codes: string[] }>("/voucher-batches", "admin@att.example", { method: "POST", body: { count: 1, value: { amount: 1500, currency: "USD" }, expiresOn } });
  expect(batch.status).toBe(201);
  const [code] = batch.body.codes;
  const prepaid = (await alexAccounts()).find((a) => a.type === "prepaid")!;

  await alex.goto(`${baseUrl}/accounts/show/${prepaid.id}`);
  const redeem = async (typed: string) => {
    await alex.getByRole("button", { name: "Redeem a voucher" }).click();
    const dialog = actionDialog(alex, "Redeem a voucher");
    await dialog.getByLabel("Voucher code").fill(typed);
    await dialog.getByRole("button", { name: "Redeem a voucher" }).click();
    return dialog;
  };

  // A wrong code: the same answer as any unknown, used or expired one, at the field; nothing moves.
  const wrong = await redeem("WRONG-CODE-0000");
  await wrong.locator("#code_help, .ant-form-item-explain-error").first().waitFor();
  expect(await accessibilityProblems(alex)).toEqual([]);
  await wrong.getByRole("button", { name: "Cancel" }).click();
  await wrong.waitFor({ state: "hidden" });
  expect((await alexAccounts()).find((a) => a.id === prepaid.id)!.balance).toEqual(prepaid.balance);

  // The right code: credited once.
  const right = await redeem(code!);
  await right.waitFor({ state: "hidden" });
  const credited = { amount: prepaid.balance!.amount + 1500, currency: "USD" };
  await expect.poll(async () => (await alexAccounts()).find((a) => a.id === prepaid.id)!.balance, POLL).toEqual(credited);

  // Spent now: refused like a wrong one, and the balance stays.
  const spent = await redeem(code!);
  await spent.locator("#code_help, .ant-form-item-explain-error").first().waitFor();
  await spent.getByRole("button", { name: "Cancel" }).click();
  expect((await alexAccounts()).find((a) => a.id === prepaid.id)!.balance).toEqual(credited);

  // The home, reached through the portal, says the new balance.
  await alex.goto(`${baseUrl}/`);
  await alex.getByTestId("account-money").getByText(`Balance: ${dollars(credited)}`, { exact: false }).waitFor();
  expect(await alex.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}, 120_000);
