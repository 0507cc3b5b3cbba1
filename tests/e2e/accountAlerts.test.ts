import { and, desc, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { openDatabase } from "../../server/db/client";
import { accounts, lines, outboxMessages } from "../../server/db/schema";
import { messageText } from "../../server/domain/outbox/messageText";
import { accessibilityProblems } from "../support/accessibility";
import { startBackendProcess, type BackendProcess } from "../support/backendProcess";
import { launchChromium } from "../support/browser";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { ALEX } from "../support/fixtures";
import { newPortalContext, signedInPage } from "../support/portalPages";
import { signInWithPassword } from "../support/testBackend";
import { createThrowawayPostgresDatabase } from "../support/testDatabase";

// Issue 27 item 5, end to end: alex transfers his number to an eSIM; the alert reaches his email
// (read from the outbox of this file's own backend, on a PostgreSQL database of its own, so the
// suite's backend keeps alex's lines unlocked); in a fresh browser, signed out, he opens the link,
// reads what the button does and presses "This wasn't me"; his lines are then locked and the
// session he had is refused. Alex's sessions are shared by nothing else: e2e files run one at a time.

let browser: Browser;
let backend: BackendProcess;
let database: Awaited<ReturnType<typeof openDatabase>>;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  const throwaway = await createThrowawayPostgresDatabase();
  dropDatabase = () => throwaway.drop();
  backend = await startBackendProcess({ DATABASE_URL: throwaway.url, STATIC_DIR: inject("staticDir") });
  database = await openDatabase({ url: throwaway.url, dataDir: "" });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  if (backend) {
    backend.signal("SIGTERM");
    await backend.exited;
  }
  await dropDatabase?.();
});

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${backend.baseUrl}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "x-operator": "ATT", ...(init.headers as Record<string, string>) },
  });

test("alex's eSIM transfer alerts his email; he presses \"This wasn't me\" without signing in and his lines lock", async () => {
  // Alex moves his prepaid number to an eSIM, as the portal's dialog does: his ID first, then the swap.
  const token = await signInWithPassword(ALEX);
  const [line] = await database.db
    .select({ id: lines.id, msisdn: lines.msisdn })
    .from(lines)
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .where(and(eq(accounts.ownerUid, "demo-alex"), eq(lines.msisdn, "+12025550101")));
  const upload = await api("/files?name=id.jpg&purpose=id_document", token, {
    method: "POST",
    body: SAMPLE_FILES.jpeg,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(upload.status).toBe(201);
  const { id: idDocumentFileId } = (await upload.json()) as { id: string };
  const swap = await api(`/lines/${line!.id}/actions/swap-sim`, token, {
    method: "POST",
    body: JSON.stringify({ simType: "esim", idDocumentFileId }),
    headers: { "content-type": "application/json" },
  });
  expect(swap.status, await swap.clone().text()).toBe(200);

  // The email the alert sent to his address, as he reads it.
  const [email] = await database.db
    .select()
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.recipient, "alex@example.com"),
        eq(outboxMessages.kind, "account.alert"),
        eq(outboxMessages.channel, "email"),
      ),
    )
    .orderBy(desc(outboxMessages.createdAt))
    .limit(1);
  expect(email).toBeDefined();
  const words = messageText(email!);
  expect(words.subject).toBe("Security alert: a change to your account");
  expect(words.body).toContain("•••0101 was moved to a new eSIM.");
  const link = /\/this-wasnt-me#[A-Za-z0-9_-]{43}/.exec(words.body)?.[0];
  expect(link, words.body).toBeDefined();

  // A fresh browser, nobody signed in, on his phone.
  const context = await newPortalContext(browser, { viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${backend.baseUrl}${link}`);
  await page.getByRole("heading", { name: "This wasn't me" }).waitFor();
  await page.getByText("lock every number on your account").waitFor();
  await page.getByText("You do not need to sign in.").waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole("button", { name: "This wasn't me" }).click();
  await page.getByRole("heading", { name: "Your account is protected" }).waitFor();
  await page.getByText("Numbers locked against transfer: 2.").waitFor();
  await page.getByText("Every device was signed out, this one included.").waitFor();
  await page.getByText("Our fraud team has an urgent request and will contact you.").waitFor();
  expect(await accessibilityProblems(page)).toEqual([]);
  await context.close();

  // The session he had is over; signed in again, his lines show locked.
  expect((await api("/lines", token)).status).toBe(401);
  const portal = await signedInPage(browser, backend.baseUrl, ALEX, { width: 360, height: 740 });
  await portal.goto(`${backend.baseUrl}/lines/show/${line!.id}`);
  await portal.getByTestId("number-lock").getByText("Your number is locked: no other carrier can take it.").waitFor();
  const locked = await database.db
    .select({ numberLocked: lines.numberLocked })
    .from(lines)
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .where(eq(accounts.ownerUid, "demo-alex"));
  expect(locked).toEqual([{ numberLocked: true }, { numberLocked: true }]);
  await portal.context().close();
});
