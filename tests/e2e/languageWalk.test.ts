import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { translateTo, type Locale } from "../../src/i18n/dictionaries";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { findResource } from "../../src/resources";
import type { ActionSpec } from "../../src/resources/define";
import { startBackendProcess, type BackendProcess } from "../support/backendProcess";
import { launchChromium } from "../support/browser";
import { verifyCallerOverHttp } from "../support/callerVerification";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";
import {
  ENGLISH_WORDS,
  leakReport,
  leaksIn,
  shownText,
  SPANISH_LETTERS,
  SPANISH_WORDS,
  type Leak,
} from "../support/languageLeaks";
import { goWithin, linksOn, pageKind, requestsInFlight, settled, WalkQueue, type InFlight } from "../support/pageWalk";
import { actionDialog, newPortalContext, signedInPage } from "../support/portalPages";
import { signInWithPassword } from "../support/testBackend";

// Issue 25 item 5: every page of each role in Spanish, each form sent empty and then wrong, and the
// server's refusals the suite knows, must hold no English word of a list; the same pages in English no
// Spanish one. One backend of its own (the forms and refusals change alex's lines), one browser, the
// three roles side by side; a run reports every leak it met at once.

addResourceMessages();
const staticDir = inject("staticDir");
let backend: BackendProcess;
let browser: Browser;

beforeAll(async () => {
  [backend, browser] = await Promise.all([
    startBackendProcess({ DATA_DIR: "memory://", STATIC_DIR: staticDir }),
    launchChromium(),
  ]);
  // The agent walks what an agent sees on a call: alex and sam verified as callers (issue 27), so
  // their records, forms and dialogs are there to read and not only "verify the caller first". The
  // reason, shown to alex and in the audit trail, is in neither language.
  for (const number of ["0101", "0103"]) await verifyCallerOverHttp(backend.baseUrl, number, "demo-agent", "e2e 360");
});
afterAll(async () => {
  await browser?.close();
  backend?.signal("SIGTERM");
  await backend?.exited;
});

const ROLES = [
  { who: "alex, a subscriber", email: ALEX, width: 360, subscriber: true },
  { who: "the care agent", email: AGENT, width: 1280, subscriber: false },
  { who: "the admin", email: ADMIN, width: 1280, subscriber: false },
];
const LANGUAGES = {
  es: { browserLocale: "es-US", words: ENGLISH_WORDS, letters: undefined },
  en: { browserLocale: "en-US", words: SPANISH_WORDS, letters: SPANISH_LETTERS },
} as const;

/** Links followed this many steps from home: menu and tabs, then the first row of a list, then what a record links to. */
const DEPTH = 3;
/** Pages a walk never opens: signing out would end it. */
const SKIPPED = /^\/(login|logout)/;

interface Walk {
  page: Page;
  locale: Locale;
  inFlight: InFlight;
  leaks: Leak[];
  /** Forms and dialogs already sent by a walk of this language (the agent and the admin share most). */
  exercised: Set<string>;
  /** Pages read. */
  pages: number;
}

async function check(walk: Walk, where: string, scope?: Locator) {
  const text = scope ? await scope.innerText() : await shownText(walk.page);
  const { words, letters } = LANGUAGES[walk.locale];
  walk.leaks.push(...leaksIn(where, text, words, letters));
}

/**
 * Goes to `path` and waits for its page. Now and then the router kept the last page in view after
 * the address changed (read as the new one, it named the wrong page): a page still saying exactly
 * what the last one said is waited for, and loaded afresh if it stays so.
 */
async function arrive(walk: Walk, path: string) {
  const before = await shownText(walk.page);
  if (new URL(walk.page.url()).pathname !== path) await goWithin(walk.page, path);
  const deadline = Date.now() + 3_000;
  do await settled(walk.page, walk.inFlight);
  while (path !== "/" && (await shownText(walk.page)) === before && Date.now() < deadline);
  if (path !== "/" && (await shownText(walk.page)) === before) {
    await walk.page.goto(new URL(path, walk.page.url()).href);
    await settled(walk.page, walk.inFlight);
  }
}

/**
 * While the walk fills forms, nothing it sends may change anything: a write that got past the
 * form's own checks is cut off (the portal then says it could not reach the server, in its words).
 * Previews change nothing and pass, and so do uploads.
 */
async function withWritesCut<T>(page: Page, run: () => Promise<T>): Promise<T> {
  const pattern = "**/api/v1/**";
  await page.route(pattern, (route) => {
    const request = route.request();
    const write = request.method() !== "GET" && !/\/preview$|\/files(\?|$)/.test(new URL(request.url()).pathname);
    return write ? route.abort("failed") : route.fallback();
  });
  try {
    return await run();
  } finally {
    await page.unroute(pattern);
  }
}

/** A field the walk listed a moment ago answers at once, or it has gone (the form re-rendered). */
const QUICK = { timeout: 2_000 };

/** Empties every field a person types in, then fills each with something its rule refuses. */
async function emptyFields(scope: Locator) {
  for (const field of await scope
    .locator("input:visible:not([type=checkbox]):not([type=radio]):not([type=file]):not([readonly]), textarea:visible")
    .all())
    await field.fill("", QUICK).catch(() => undefined); // gone or read-only: nothing to empty
}
async function wrongFields(scope: Locator) {
  for (const field of await scope
    .locator("input:visible:not([type=checkbox]):not([type=radio]):not([type=file]):not([readonly]), textarea:visible")
    .all()) {
    const numeric = await field
      .evaluate(
        (el) =>
          (el as HTMLInputElement).type === "number" ||
          el.getAttribute("inputmode") === "numeric" ||
          el.getAttribute("inputmode") === "decimal" ||
          el.closest(".ant-input-number, .ant-picker") !== null ||
          (el as HTMLInputElement).type === "tel",
        undefined,
        QUICK,
      )
      .catch(() => null);
    if (numeric === null) continue; // re-rendered away since the fields were listed
    // Letters where digits belong; one letter where words belong (too short for any rule that asks for some).
    await field.fill(numeric ? "abc" : "x", QUICK).catch(() => undefined);
  }
}

/** Sends a form empty and then with wrong values, checking what the page says each time. */
async function exerciseForm(walk: Walk, where: string, form: Locator, submit: Locator) {
  await withWritesCut(walk.page, async () => {
    for (const [fill, what] of [
      [emptyFields, "sent empty"],
      [wrongFields, "sent with wrong values"],
    ] as const) {
      await fill(form);
      // A form whose button waits for a change (an edit page with nothing changed) has nothing to say yet.
      if (
        !(await submit.click(QUICK).then(
          () => true,
          () => false,
        ))
      )
        continue;
      await settled(walk.page, walk.inFlight);
      await check(walk, `${where} (${what})`);
    }
  });
}

/** The forms of a page: a create or edit page's, and any other with a submit button of its own. */
async function exerciseForms(walk: Walk, path: string) {
  const main = walk.page.locator("main, .ant-layout-content").first();
  // A create or edit page's Save button (Refine's) sits outside its form.
  const save = main.locator(".refine-save-button").first();
  if ((await save.isVisible()) && once(walk, `${pageKind(path)} save`))
    await exerciseForm(walk, path, main.locator("form").first(), save);
  const forms = await main
    .locator("form:visible")
    .filter({ has: walk.page.locator("button[type=submit]") })
    .all();
  for (const [i, form] of forms.entries())
    if (once(walk, `${pageKind(path)} form ${i + 1}`))
      await exerciseForm(walk, `${path} form ${i + 1}`, form, form.locator("button[type=submit]").first());
}

/** Whether an action's dialog stays open to ask something (ActionDialog: others run as soon as they open). */
const asks = (action: ActionSpec) =>
  Boolean(action.input || action.reason || action.preview || action.confirm || action.danger);

/**
 * A record's action dialogs (its Manage buttons): each opened, read, and when it has fields, sent
 * empty and then wrong; then closed. Dialogs that ask nothing would act at once and are left alone.
 */
async function exerciseActions(walk: Walk, path: string) {
  const resource = findResource(path.split("/")[1] ?? "");
  const main = walk.page.locator("main, .ant-layout-content").first();
  for (const action of Object.values<ActionSpec>(resource?.actions ?? {})) {
    if (!asks(action)) continue;
    const label = translateTo(walk.locale, action.label);
    const button = main.getByRole("button", { name: new RegExp(`^${escapeRegExp(label)}`) }).first();
    if (!(await button.isVisible()) || !once(walk, `${pageKind(path)} ${action.label}`)) continue;
    await button.click();
    await settled(walk.page, walk.inFlight);
    const where = `${path} "${label}"`;
    // Most open the action's dialog; some of the subscriber's lead to a page of their own (a plan to pick in Shop).
    const dialog = walk.page.locator(".ant-modal-wrap:visible [role=dialog]").last();
    if (!(await dialog.isVisible())) {
      await check(walk, where);
      if (new URL(walk.page.url()).pathname !== path) {
        await goWithin(walk.page, path);
        await settled(walk.page, walk.inFlight);
      }
      continue;
    }
    await check(walk, where);
    const form = dialog.locator("form").first();
    const fields = form.locator("input:visible:not([type=checkbox]):not([type=radio]), textarea:visible");
    // The declared actions' dialogs send from their footer; the portal's own (pay a bill) from their form.
    const submit = dialog.locator(".ant-modal-footer .ant-btn-primary, form button[type=submit]").first();
    if ((await fields.count()) > 0 && (await submit.isVisible())) await exerciseForm(walk, where, form, submit);
    await dialog.locator(".ant-modal-close").click();
    await dialog.waitFor({ state: "hidden" });
  }
}

/** Whether this walk's language has yet to send the form or dialog `key` (and it now counts as sent). */
function once(walk: Walk, key: string): boolean {
  if (walk.exercised.has(key)) return false;
  walk.exercised.add(key);
  return true;
}

/**
 * Text the backend writes into records and the portal shows as it is: a ledger entry's reason (the
 * demo seed's and a redemption's), an overage line of a bill.
 */
const BACKEND_WORDED = ["Voucher top-up", "monthly plan", "beyond the allowance"];
/** The walk's leaks in BACKEND_WORDED text, for the backend's test. */
const backendLeaks: Leak[] = [];

function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Every page a role reaches from its home by links (menu or tabs, then the first record of each
 * list, then what a record links to, each kind of page once), read in the page's language.
 */
interface WalkOptions {
  /** Send each form and open each dialog (Spanish), or only read the pages (English). */
  forms: boolean;
  depth?: number;
  /** The pages left, shared with walks of roles that see the same ones (the staff). */
  queue?: WalkQueue;
  /** Forms and dialogs already sent, shared the same way. */
  exercised?: Set<string>;
}

async function walkRole(
  email: string,
  width: number,
  locale: Locale,
  { forms, depth: maxDepth = DEPTH, queue = new WalkQueue(), exercised = new Set<string>() }: WalkOptions,
): Promise<Walk> {
  const page = await signedInPage(browser, backend.baseUrl, email, {
    width,
    locale: LANGUAGES[locale].browserLocale,
  });
  page.on("dialog", (dialog) => void dialog.accept()); // "leave with unsaved changes?" after a form
  const walk: Walk = {
    page,
    locale,
    inFlight: requestsInFlight(page, backend.baseUrl),
    leaks: [],
    exercised,
    pages: 0,
  };
  queue.offer(new Set([email]), "/", 0);
  try {
    for (let item = await queue.next(email); item; item = await queue.next(email)) {
      const { path, depth, walkers } = item;
      walk.pages++;
      try {
        await arrive(walk, path);
        await check(walk, path);
        if (depth < maxDepth)
          for (const link of await linksOn(page)) if (!SKIPPED.test(link)) queue.offer(walkers, link, depth + 1);
        if (forms) {
          await exerciseForms(walk, path);
          if (/\/show\//.test(path)) await exerciseActions(walk, path);
        }
      } finally {
        queue.done();
      }
    }
  } finally {
    await page.context().close();
  }
  return walk;
}

describe("the language walk", () => {
  test("in Spanish, no page, form message or dialog of any role says an English word", async () => {
    // The agent and the admin share the pages and dialogs they both see: each is read and sent once.
    const staff = { queue: new WalkQueue(), exercised: new Set<string>() };
    const walks = await Promise.all(
      ROLES.map(({ email, width, subscriber }) =>
        walkRole(email, width, "es", { forms: true, ...(subscriber ? {} : staff) }),
      ),
    );
    const leaks = walks.flatMap((w, i) => w.leaks.map((l) => ({ ...l, where: `${ROLES[i]!.who}: ${l.where}` })));
    // Words the backend wrote into records (a ledger entry's reason) are its to translate: the last test checks them.
    const [backendWords, portalWords] = partition(leaks, (l) => BACKEND_WORDED.some((p) => l.context.includes(p)));
    backendLeaks.push(...backendWords);
    expect(portalWords, leakReport(portalWords)).toEqual([]);
    // A walk that silently read nothing would pass: each role read pages, and forms and dialogs were sent.
    expect(Math.min(...walks.map((w) => w.pages)), "pages the least-walking role read").toBeGreaterThan(5);
    expect(walks[0]!.exercised.size + staff.exercised.size, "forms and dialogs sent").toBeGreaterThan(20);
  }, 120_000);

  test("in English, no page of any role says a Spanish word", async () => {
    // A lighter walk: menu pages and the first record of each list; the staff roles share the pages they both see.
    const staffQueue = new WalkQueue();
    const walks = await Promise.all(
      ROLES.map(({ email, width, subscriber }) =>
        walkRole(email, width, "en", { forms: false, depth: 2, queue: subscriber ? undefined : staffQueue }),
      ),
    );
    const leaks = walks.flatMap((w, i) => w.leaks.map((l) => ({ ...l, where: `${ROLES[i]!.who}: ${l.where}` })));
    expect(leaks, leakReport(leaks)).toEqual([]);
    expect(Math.min(...walks.map((w) => w.pages)), "pages the least-walking role read").toBeGreaterThan(5);
  }, 120_000);

  // Until the backend answers in the request's language (Accept-Language), the refusals it words
  // itself fail here: that is this test's purpose, so it is not skipped.
  test("in Spanish, the refusals the suite knows and the words the backend writes into records are Spanish", async () => {
    const leaks: Leak[] = [...backendLeaks];
    const es = (key: string) => translateTo("es", key);
    const read = async (where: string, scope: Locator) =>
      leaks.push(...leaksIn(where, await scope.innerText(), ENGLISH_WORDS));

    // A wrong password at sign-in (the Auth emulator's refusal, worded by the portal).
    const context = await newPortalContext(browser, { locale: "es-US", viewport: { width: 360, height: 800 } });
    const signIn = await context.newPage();
    await signIn.goto(`${backend.baseUrl}/login`);
    await signIn.locator("input[type=email]").fill(ALEX);
    await signIn.locator("input[type=password]").fill("not-the-password");
    await signIn.locator("button[type=submit]").click();
    await read("sign-in with a wrong password", signIn.getByRole("alert"));
    await context.close();

    const page = await signedInPage(browser, backend.baseUrl, ALEX, { width: 360, locale: "es-US" });
    const inFlight = requestsInFlight(page, backend.baseUrl);
    // A page alex may not open.
    await page.goto(`${backend.baseUrl}/kpis`);
    await page.locator(".ant-result-403").waitFor();
    await read("/kpis, not for subscribers", page.locator(".ant-result-403"));

    // An unknown voucher code, refused at its field (400/422 from the backend).
    const token = await signInWithPassword(ALEX);
    const headers = { authorization: `Bearer ${token}`, "x-operator": "ATT" };
    const accounts = (await (await fetch(`${backend.baseUrl}/api/v1/accounts`, { headers })).json()) as {
      data: { id: string; type: string }[];
    };
    const prepaid = accounts.data.find((a) => a.type === "prepaid")!;
    await goWithin(page, `/accounts/show/${prepaid.id}`);
    const redeem = es("resources.accounts.actions.redeemVoucher");
    await page.getByRole("button", { name: redeem }).first().click();
    const voucher = actionDialog(page, redeem);
    await voucher.getByLabel(es("fields.voucherCode")).fill("WRONG-CODE-0000");
    await voucher.locator(".ant-modal-footer .ant-btn-primary").click();
    await voucher.locator(".ant-form-item-explain-error, .ant-alert").first().waitFor();
    await read("an unknown voucher code", voucher);
    await voucher.locator(".ant-modal-footer .ant-btn:not(.ant-btn-primary)").click();
    await voucher.waitFor({ state: "hidden" });

    // A transfer PIN while the number is locked (409 naming the lock); the number is unlocked after.
    const lines = (await (await fetch(`${backend.baseUrl}/api/v1/lines`, { headers })).json()) as {
      data: { id: string; msisdn: string }[];
    };
    const line = lines.data.find((l) => l.msisdn === "+12025550101")!;
    await goWithin(page, `/lines/show/${line.id}`);
    const run = async (key: string) => {
      const label = es(key);
      await page
        .getByRole("button", { name: new RegExp(`^${escapeRegExp(label)}`) })
        .first()
        .click();
      const dialog = actionDialog(page, label);
      await dialog.locator(".ant-modal-footer .ant-btn-primary").click();
      return dialog;
    };
    await (await run("resources.lines.actions.lockNumber")).waitFor({ state: "hidden" });
    await settled(page, inFlight);
    const pin = await run("resources.lines.actions.portOutPin");
    await pin.getByRole("alert").waitFor();
    await read("a transfer PIN for a locked number", pin);
    await pin.locator(".ant-modal-footer .ant-btn:not(.ant-btn-primary)").click();
    await pin.waitFor({ state: "hidden" });
    await (await run("resources.lines.actions.unlockNumber")).waitFor({ state: "hidden" });
    await page.context().close();

    expect(leaks, leakReport(leaks)).toEqual([]);
  });
});
