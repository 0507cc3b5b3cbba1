import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Browser, Page } from "playwright-core";
import { accessibilityProblems } from "../support/accessibility";
import { launchChromium } from "../support/browser";
import { pickOption, signedInPage } from "../support/portalPages";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { startSandboxBackend, type SandboxBackend } from "../support/sandboxBackend";
import { signInWithPassword } from "../support/testBackend";

// "A day in alex's life" (issue 23) at 360 px, in English and in Spanish, each on a backend of its
// own (fresh demo data, the sandbox card gateway): every destination one tap away with no engine
// words; a voucher top-up in 3 taps from home whose result names the new balance; the overdue bill
// paid from the home's Pay now with a card added in the same dialog; a roaming pass bought in Shop;
// a line suspended and restored with its timeline read; a help request sent with a photo; the
// notifications read from Account. No console errors, no axe problems on the way.

interface Words {
  locale: string;
  tabs: [string, string, string, string, string];
  topUp: string;
  redeem: string;
  voucherLabel: string;
  added: RegExp;
  payNow: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  saveCard: string;
  pay: string;
  paid: string;
  payTitle: string;
  payResult: RegExp;
  done: string;
  buyPass: string;
  /** The pass's name in the page's language (the catalog's translation, issue 25). */
  passName: string;
  passAdded: RegExp;
  notifications: string;
  manage: string;
  deviceClaim: string;
  startClaim: string;
  review: string;
  suspend: string;
  restore: string;
  reasonLabel: string;
  atYourRequest: string;
  suspended: string;
  active: string;
  restoration: RegExp;
  restorationTitle: string;
  helpRequests: string;
  accountLabel: string;
  prepaidAccount: string;
  topic: string;
  coverage: string;
  subject: string;
  message: string;
  attachments: string;
  send: string;
}

const english: Words = {
  locale: "en-US",
  tabs: ["Home", "Usage", "Money", "Shop", "Account"],
  topUp: "Top up",
  redeem: "Redeem a voucher",
  voucherLabel: "Voucher code",
  added: /^\$40\.00 added\. Your balance is \$80\.00\.$/,
  payNow: "Pay now",
  cardNumber: "Card number",
  expiry: "Expiry (MM/YY)",
  cvc: "Security code",
  saveCard: "Save card",
  pay: "Pay",
  paid: "Paid",
  payTitle: "Pay your bill",
  payResult: /paid\. Nothing left to pay\./,
  done: "Done",
  buyPass: "Buy Canada & Mexico pass, 10 days",
  passName: "Canada & Mexico pass, 10 days",
  passAdded: /Canada & Mexico pass, 10 days was added\./,
  notifications: "Notifications",
  manage: "Manage",
  deviceClaim: "Damaged, lost or stolen phone",
  startClaim: "Claim for a damaged, lost or stolen phone",
  review: "Review",
  suspend: "Suspend",
  restore: "Restore",
  reasonLabel: "Suspension reason",
  atYourRequest: "At your request",
  suspended: "Suspended",
  active: "Active",
  restoration: /^Restoration · Completed/,
  restorationTitle: "Restoration for (202) 555-0101",
  helpRequests: "Help requests",
  accountLabel: "Account holder",
  prepaidAccount: "Alex Rivera · Prepaid",
  topic: "Topic",
  coverage: "Coverage or service",
  subject: "Subject",
  message: "Message",
  attachments: "Attachments",
  send: "Send request",
};

const spanish: Words = {
  locale: "es-US",
  tabs: ["Inicio", "Consumo", "Pagos", "Tienda", "Cuenta"],
  topUp: "Recargar",
  redeem: "Canjear un cupón",
  voucherLabel: "Código del cupón",
  added: /^Se añadieron .*40[.,]00.*\. Tu saldo es .*80[.,]00.*\.$/,
  payNow: "Pagar ahora",
  cardNumber: "Número de tarjeta",
  expiry: "Caducidad (MM/AA)",
  cvc: "Código de seguridad",
  saveCard: "Guardar tarjeta",
  pay: "Pagar",
  paid: "Pagada",
  payTitle: "Paga tu factura",
  payResult: /pagados\. No queda nada por pagar\./,
  done: "Listo",
  buyPass: "Comprar Pase Canadá y México, 10 días",
  passName: "Pase Canadá y México, 10 días",
  passAdded: /Pase Canadá y México, 10 días/,
  notifications: "Avisos",
  manage: "Gestionar",
  deviceClaim: "Teléfono dañado, perdido o robado",
  startClaim: "Reclamar por un teléfono dañado, perdido o robado",
  review: "Revisar",
  suspend: "Suspender",
  restore: "Reactivar",
  reasonLabel: "Motivo de la suspensión",
  atYourRequest: "A petición tuya",
  suspended: "Suspendida",
  active: "Activa",
  restoration: /^Reactivación · Completado/,
  restorationTitle: "Reactivación del (202) 555-0101",
  helpRequests: "Solicitudes de ayuda",
  accountLabel: "Titular",
  prepaidAccount: "Alex Rivera · Prepago",
  topic: "Tema",
  coverage: "Cobertura o servicio",
  subject: "Asunto",
  message: "Mensaje",
  attachments: "Adjuntos",
  send: "Enviar solicitud",
};

/** Words of the engine that a subscriber page must never show (ids, field keys, enum values, "record"). */
const ENGINE_WORDS = [
  /\brecords?\b/i,
  /\bregistros?\b/i,
  /Export CSV|Exportar CSV/,
  /\b(resources|fields|enums|actions)\.[a-z]/,
  /\b[a-z]+_[a-z_]+\b/,
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/,
];

async function engineWordsOn(page: Page): Promise<string[]> {
  const text = await page.locator("main, .ant-layout-content").first().innerText();
  return ENGINE_WORDS.flatMap((pattern) => (pattern.test(text) ? [`${pattern} in: ${text.match(pattern)![0]}`] : []));
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

for (const words of [english, spanish]) {
  describe(`a day in alex's life (${words.locale})`, () => {
    let sandbox: SandboxBackend;
    let page: Page;
    const problems: string[] = [];
    const tab = (name: string) => page.getByRole("navigation").getByRole("link", { name, exact: true });

    beforeAll(async () => {
      sandbox = await startSandboxBackend(inject("staticDir"), `day-${words.locale}`);
      page = await signedInPage(browser, sandbox.backend.baseUrl, "alex@example.com", {
        width: 360,
        height: 740,
        locale: words.locale,
      });
      page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
      page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
    }, 240_000);
    afterAll(async () => {
      await page?.context().close();
      await sandbox?.stop();
    });

    test("each destination is one tap from the tab bar, in words a person uses", async () => {
      for (const [i, name] of words.tabs.entries()) {
        await tab(name).click();
        // Home greets; every other destination is titled by its tab's name.
        await (
          i === 0
            ? page.getByRole("heading", { name: /^(Hello|Hola), Alex$/ })
            : page.getByRole("heading", { level: 1, name })
        ).waitFor();
        expect(await tab(name).getAttribute("aria-current"), name).toBe("page");
        if (i > 0) await page.locator(".ant-skeleton").first().waitFor({ state: "detached" });
        expect(await engineWordsOn(page), name).toEqual([]);
        expect(await accessibilityProblems(page), name).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(360);
      }
    });

    test("a voucher tops up the balance in three taps from home, and the result names the new balance", async () => {
      const res = await fetch(`${sandbox.backend.baseUrl}/api/v1/voucher-batches`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await signInWithPassword("admin@att.example")}`,
          "x-operator": "ATT",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          count: 1,
          value: { amount: 4000, currency: "USD" },
          expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        }),
      });
      expect(res.status).toBe(201);
      const [code] = ((await res.json()) as { codes: string[] }).codes;

      await tab(words.tabs[0]).click();
      await page.getByTestId("account-money").getByRole("link", { name: words.topUp }).click(); // 1
      await page.getByTestId("voucher-top-up").getByRole("button", { name: words.redeem }).click(); // 2
      const dialog = page.getByRole("dialog", { name: `${words.redeem} · (202) 555-0101` });
      await dialog.getByLabel(words.voucherLabel).fill(code!);
      await dialog.getByRole("button", { name: words.redeem }).click(); // 3
      await dialog.waitFor({ state: "hidden" });
      await page.getByText(words.added).waitFor();
    });

    test("the overdue bill is paid from the home's Pay now, with a card added in the same dialog", async () => {
      await tab(words.tabs[0]).click();
      await page.getByTestId("next-step").getByRole("link", { name: words.payNow }).click();
      const dialog = page.getByRole("dialog", { name: words.payTitle });
      // No saved card or bank account: adding one is there at once, a card unless another is chosen.
      await dialog.getByTestId("pay-new-method").waitFor();
      expect(await dialog.innerText()).not.toMatch(/record|registro/i);
      await dialog.getByLabel(words.cardNumber).fill("4242 4242 4242 4242");
      await dialog.getByLabel(words.expiry).fill("11/39");
      await dialog.getByLabel(words.cvc).fill("321");
      expect(await accessibilityProblems(page)).toEqual([]);
      // One tap saves the card and pays with it.
      await dialog.getByRole("button", { name: new RegExp(`^${words.pay} `) }).click();
      await dialog.getByTestId("pay-result").getByText(words.payResult).waitFor();
      await dialog.getByRole("button", { name: words.done }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByTestId("bill-row").first().getByText(words.paid, { exact: true }).waitFor();
      // Home no longer asks.
      await tab(words.tabs[0]).click();
      await page.getByTestId("line-card").first().waitFor();
      // The home shows what it had until its re-read (started by the payment) answers: wait for it, never count at once.
      await page.getByRole("link", { name: words.payNow }).waitFor({ state: "detached" });
    });

    test("a roaming pass is bought in Shop for the prepaid line", async () => {
      await tab(words.tabs[3]).click();
      await page.getByRole("button", { name: words.buyPass }).click();
      const dialog = page.getByRole("dialog", { name: new RegExp(words.passName) });
      await dialog.getByRole("button", { name: /\$20\.00|20,00/ }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByTestId("active-add-on").filter({ hasText: words.passName }).waitFor();
    });

    test("a line is suspended and restored from its page, and the restoration reads as a timeline", async () => {
      await tab(words.tabs[0]).click();
      await page
        .getByTestId("line-card")
        .filter({ hasText: "(202) 555-0101" })
        .getByRole("link", { name: "(202) 555-0101" })
        .click();
      const manage = page.getByRole("region", { name: words.manage });
      await manage.getByRole("button", { name: new RegExp(`^${words.suspend}`) }).click();
      const suspend = page.getByRole("dialog", { name: `${words.suspend} · (202) 555-0101` });
      await pickOption(page, suspend, words.reasonLabel, words.atYourRequest);
      await suspend.getByRole("button", { name: words.review }).click(); // the server's quote first
      await suspend.getByTestId("action-quote").waitFor();
      await suspend.getByRole("button", { name: words.suspend, exact: true }).click();
      await suspend.waitFor({ state: "hidden" });
      await page.getByTestId("line-status").getByText(words.suspended, { exact: true }).waitFor();
      await manage.getByRole("button", { name: new RegExp(`^${words.restore}`) }).click();
      const restore = page.getByRole("dialog", { name: `${words.restore} · (202) 555-0101` });
      await restore.getByRole("button", { name: words.restore, exact: true }).click();
      await restore.waitFor({ state: "hidden" });
      await page.getByTestId("line-status").getByText(words.active, { exact: true }).waitFor();
      await page.getByRole("link", { name: words.restoration }).first().click();
      await page.getByRole("heading", { level: 1, name: words.restorationTitle }).waitFor();
      await page.getByTestId("order-timeline").locator("li").nth(2).waitFor();
      expect(await engineWordsOn(page)).toEqual([]);
      expect(await accessibilityProblems(page)).toEqual([]);
    });

    test("a help request goes out with a photo, from Account", async () => {
      await tab(words.tabs[4]).click();
      await page
        .locator(".task-list")
        .getByRole("link", { name: new RegExp(`^${words.helpRequests}`) })
        .click();
      await pickOption(page, page, words.accountLabel, words.prepaidAccount);
      await pickOption(page, page, words.topic, words.coverage);
      await page.getByLabel(words.subject).fill("No signal at home");
      await page.getByLabel(words.message).fill("Since Monday there is no signal in my kitchen on (202) 555-0101.");
      await page
        .getByLabel(words.attachments)
        .setInputFiles({ name: "no-signal.png", mimeType: "image/png", buffer: SAMPLE_FILES.png });
      await page.getByTestId("picked-file").getByText("no-signal.png").waitFor();
      expect(await engineWordsOn(page)).toEqual([]);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole("button", { name: words.send }).click();
      await page.getByRole("heading", { name: "No signal at home" }).first().waitFor();
      await page.getByText("no-signal.png").first().waitFor();
    });

    test("a device claim is started from Account on a page with no staff tools", async () => {
      await tab(words.tabs[4]).click();
      await page
        .locator(".task-list")
        .getByRole("link", { name: new RegExp(`^${words.deviceClaim}`) })
        .click();
      await page.getByRole("button", { name: words.startClaim }).waitFor();
      expect(await engineWordsOn(page)).toEqual([]);
      await page.getByRole("button", { name: words.startClaim }).click();
      await page.getByRole("heading", { name: words.startClaim }).waitFor();
      expect(await engineWordsOn(page)).toEqual([]);
      expect(await accessibilityProblems(page)).toEqual([]);
    });

    test("the notifications are read from Account, and nothing went wrong in the console on the way", async () => {
      await tab(words.tabs[4]).click();
      await page
        .locator(".task-list")
        .getByRole("link", { name: new RegExp(`^${words.notifications}`) })
        .click();
      await page.getByRole("heading", { name: words.notifications }).first().waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(problems).toEqual([]);
    });
  });
}
