import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { startBackendProcess, type BackendProcess } from "../support/backendProcess";
import { launchChromium } from "../support/browser";
import { pickOption, signedInPage, typeDate } from "../support/portalPages";

// Travel insurance (issue 29), a product declared in one file, bought in Spanish on a phone (360 px)
// on a backend of its own: Shop › More › Seguro de viaje, the form starts today, works out the last
// day, refuses a start in the past at the field, quotes the price before "Comprar", and the policy
// is then cancelled before its start with the price back on the balance.

const PHONE = { width: 360, height: 780 };
let browser: Browser;
let backend: BackendProcess;
let alex: Page;

beforeAll(async () => {
  [browser, backend] = await Promise.all([
    launchChromium(),
    startBackendProcess({ DATA_DIR: "memory://", STATIC_DIR: inject("staticDir") }),
  ]);
  alex = await signedInPage(browser, backend.baseUrl, "alex@example.com", { ...PHONE, locale: "es-US" });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  if (backend) {
    backend.signal("SIGTERM");
    await backend.exited;
  }
});

let shot = 0;
/** A screenshot per step (/tmp/travel-<n>-<name>.png); the page must not scroll sideways. */
async function step(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/travel-${++shot}-${name}.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** The prepaid balance Home shows on the line's card, as text ("$12.34"). */
const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test("alex buys travel insurance in Spanish from Shop, sees the price first, and cancels it for the price back", async () => {
  await alex.goto(`${backend.baseUrl}/shop`);
  await alex
    .getByRole("link", { name: /Seguro de viaje/ })
    .or(alex.getByRole("button", { name: /Seguro de viaje/ }))
    .first()
    .click();
  await alex
    .getByRole("button", { name: "Comprar un seguro de viaje" })
    .or(alex.getByRole("link", { name: "Comprar un seguro de viaje" }))
    .first()
    .click();
  await alex.getByRole("heading", { name: "Comprar un seguro de viaje" }).waitFor();

  // The form starts today, for 7 days; the last day is worked out as it changes.
  const form = alex.locator("form");
  await pickOption(alex, form, "Línea", "(202) 555-0101");
  await pickOption(alex, form, "Adónde viajas", "Europa");
  await expect(form.getByLabel("Días").inputValue()).resolves.toBe("7");
  await form.getByLabel("Días").fill("10");
  await step(alex, "form");

  // A start in the past is refused at the field, before anything is sent.
  const first = form.getByLabel("Primer día");
  await typeDate(alex, first, dayIn(-1));
  await form.getByText("Elige hoy o un día posterior.").waitFor();
  await typeDate(alex, first, dayIn(5));
  await form.getByText("Elige hoy o un día posterior.").waitFor({ state: "detached" });

  // The quote: 10 days in Europe at $2.00 a day, before anything is bought.
  const quote = alex.getByTestId("action-quote");
  await quote.waitFor();
  await expect(quote.textContent()).resolves.toMatch(/20[.,]00/);
  await step(alex, "quote");
  const buy = alex.getByRole("button", { name: /Comprar · .*20[.,]00/ });
  await expect(buy.isEnabled()).resolves.toBe(true);
  expect(await accessibilityProblems(alex)).toEqual([]);
  await buy.click();

  // The policy's page, in words a person uses.
  await alex.getByText("Activo").first().waitFor();
  await expect(alex.locator("body").textContent()).resolves.toMatch(/Europa/);
  await step(alex, "policy");

  // Cancel it before it starts: the dialog shows the refund, then the price is back.
  await alex.getByRole("button", { name: "Cancelar el seguro" }).click();
  const dialog = alex.getByRole("dialog", { name: /^Cancelar el seguro · / });
  await dialog.getByRole("button", { name: "Revisar" }).click();
  await dialog.getByTestId("action-quote").waitFor();
  await expect(dialog.getByTestId("action-quote").textContent()).resolves.toMatch(/Te devolvemos \$20[.,]00/);
  await step(alex, "cancel");
  await dialog
    .getByRole("button", { name: /Cancelar el seguro|Confirmar/ })
    .last()
    .click();
  await alex.getByText("Tu seguro de viaje está cancelado.").waitFor();
  await alex.getByText("Cancelado").first().waitFor();
  // Nothing more can be done with it: no empty "what you can do" card.
  await alex.getByText("Lo que puedes hacer").waitFor({ state: "detached" });
  await step(alex, "cancelled");
}, 180_000);
