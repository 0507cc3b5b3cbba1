import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { launchChromium } from "../support/browser";
import { freshEmail, freshPhoneNumber, lastOobCode, lastSmsCode, smsCodeCount } from "../support/emulatorCodes";
import { signInWithPassword, signInWithSecondFactor } from "../support/testBackend";
import { newPortalContext } from "../support/portalPages";

const baseUrl = inject("baseUrl");
const PASSWORD = "Test-2026!pass";
const POLL = { timeout: 20_000, interval: 200 };
const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A subscriber with a verified email and a password (MFA needs a verified email). */
async function freshSubscriber(label: string) {
  const email = freshEmail(label);
  const user = await auth.createUser({ email, password: PASSWORD, emailVerified: true, displayName: `Test ${label}` });
  await auth.setCustomUserClaims(user.uid, { role: "subscriber", operator: "ATT" });
  return { uid: user.uid, email };
}

let adminToken: string | undefined;
/**
 * The user's audit events with this action, as an admin reads them: recorded by the backend itself
 * from the next request's newer ID token (the portal reports nothing).
 */
async function serverRecorded(uid: string, action: string) {
  const res = await fetch(`${baseUrl}/api/v1/audit-events?filter[targetId]=${uid}&filter[action]=${action}`, {
    headers: {
      authorization: `Bearer ${(adminToken ??= await signInWithPassword("admin@att.example", "Demo-2026!"))}`,
      "x-operator": "ATT",
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { before: unknown; after: unknown }[] }).data;
}

async function newPage(width = 1280, height = 800): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newPortalContext(browser, { viewport: { width, height }, locale: "en-US" });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

async function passwordSignIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Types the code the emulator recorded for `phone` after `before` codes. */
async function enterNewCode(page: Page, phone: string, before: number) {
  await expect.poll(() => smsCodeCount(phone), POLL).toBeGreaterThan(before);
  await page.getByLabel("Code from the text message").fill(await lastSmsCode(phone));
}

describe.each([
  { name: "phone 360 px", width: 360, height: 740 },
  { name: "desktop 1280 px", width: 1280, height: 800 },
])("at $name", ({ width, height }) => {
  test("a new subscriber signs in with a phone number and an SMS code", async () => {
    const { context, page } = await newPage(width, height);
    const phone = freshPhoneNumber();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("link", { name: "Sign in with your phone number" }).click();
    await page.getByLabel("Mobile number").fill(phone.replace("+1", ""));
    const before = await smsCodeCount(phone);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await enterNewCode(page, phone, before);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: /Hello/ }).waitFor();
    // The backend made the new sign-in a subscriber of ATT: its (empty) lines load without an error.
    await page.getByText("There are no lines on your account yet.").waitFor();
    const user = await auth.getUserByPhoneNumber(phone);
    expect(user.customClaims).toEqual({ role: "subscriber", operator: "ATT" });
    await context.close();
  });
});

test("SMS two-step verification: enrol on the security page, then sign in with it", async () => {
  const { email } = await freshSubscriber("mfa");
  const phone = freshPhoneNumber();
  const { context, page } = await newPage();
  await passwordSignIn(page, email);
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  await page.goto(`${baseUrl}/security`);
  await page.getByRole("button", { name: "Turn on with a phone number" }).click();
  await page.getByLabel("Mobile number").fill(phone);
  let before = await smsCodeCount(phone);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await enterNewCode(page, phone, before);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("Two-step verification is on.").waitFor();
  await expect
    .poll(async () => (await auth.getUserByEmail(email)).multiFactor?.enrolledFactors.length ?? 0, POLL)
    .toBe(1);
  await context.close();

  const second = await newPage(360, 740);
  before = await smsCodeCount(phone);
  await passwordSignIn(second.page, email);
  await second.page.getByRole("heading", { name: "Second step" }).waitFor();
  expect(await second.page.getByText(`•••• ${phone.slice(-4)}`).count()).toBeGreaterThan(0);
  await enterNewCode(second.page, phone, before);
  await second.page.getByRole("button", { name: "Continue" }).click();
  await second.page.getByRole("heading", { name: /Hello/ }).waitFor();
  await second.context.close();
});

test("a phone linked to an email account signs in to the same account, and so does the email", async () => {
  const { uid, email } = await freshSubscriber("link");
  const phone = freshPhoneNumber();
  const { context, page } = await newPage();
  await passwordSignIn(page, email);
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  await page.goto(`${baseUrl}/security`);
  await page.getByText("You have only one way to sign in.", { exact: false }).waitFor();
  await page.getByRole("button", { name: "Add a phone number" }).click();
  await page.getByLabel("Mobile number").fill(phone);
  const before = await smsCodeCount(phone);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await enterNewCode(page, phone, before);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByText("You can sign in 2 ways.", { exact: false }).waitFor();
  expect((await auth.getUser(uid)).phoneNumber).toBe(phone);
  // The next request (the lines page) carries the new token: the backend records the link itself.
  await page.goto(`${baseUrl}/lines`);
  await expect
    .poll(() => serverRecorded(uid, "identity.linked"), POLL)
    .toEqual([
      expect.objectContaining({
        after: { providerId: "phone", phone: `•••• ${phone.slice(-4)}`, source: "admin-user-record" },
      }),
    ]);
  await context.close();

  const byPhone = await newPage(360, 740);
  await byPhone.page.goto(`${baseUrl}/login/phone`);
  await byPhone.page.getByLabel("Mobile number").fill(phone);
  const again = await smsCodeCount(phone);
  await byPhone.page.getByRole("button", { name: "Text me a code" }).click();
  await enterNewCode(byPhone.page, phone, again);
  await byPhone.page.getByRole("button", { name: "Continue" }).click();
  await byPhone.page.getByRole("heading", { name: /Hello, Test/ }).waitFor();
  expect(await byPhone.page.evaluate(() => localStorage.getItem("portal.session"))).toBe("1");
  await byPhone.context.close();

  const byEmail = await newPage();
  await passwordSignIn(byEmail.page, email);
  await byEmail.page.getByRole("heading", { name: /Hello, Test/ }).waitFor();
  await byEmail.context.close();
});

test("sign out everywhere makes another browser lose access", async () => {
  const { email } = await freshSubscriber("everywhere");
  const a = await newPage();
  const b = await newPage(360, 740);
  for (const { page } of [a, b]) {
    await passwordSignIn(page, email);
    await page.getByRole("heading", { name: /Hello/ }).waitFor();
  }
  // auth_time has one-second resolution: a revocation in the same second as sign-in would not count.
  await new Promise((r) => setTimeout(r, 1100));
  await a.page.goto(`${baseUrl}/security`);
  await a.page.getByRole("button", { name: "Sign out everywhere" }).click();
  await a.page.getByRole("button", { name: "OK" }).click();
  await a.page.getByLabel("Email").waitFor();

  await b.page.goto(`${baseUrl}/lines`);
  await expect.poll(() => new URL(b.page.url()).pathname, POLL).toBe("/login");
  await b.page.getByLabel("Email").waitFor();
  await a.context.close();
  await b.context.close();
});

test("a staff member without a second step is sent to enrolment when the operator requires it", async () => {
  // Switching the policy off needs an admin signed in with a second factor (the policy binds admins too).
  const adminEmail = freshEmail("mfa-admin");
  const admin = await auth.createUser({
    email: adminEmail,
    password: PASSWORD,
    emailVerified: true,
    multiFactor: { enrolledFactors: [{ factorId: "phone", phoneNumber: freshPhoneNumber() }] },
  });
  await auth.setCustomUserClaims(admin.uid, { role: "admin", operator: "ATT" });
  const adminToken = await signInWithSecondFactor(adminEmail, PASSWORD);
  const setPolicy = (requireStaffMfa: boolean) =>
    fetch(`${baseUrl}/api/v1/security-policy`, {
      method: "PUT",
      headers: { authorization: `Bearer ${adminToken}`, "x-operator": "ATT", "content-type": "application/json" },
      body: JSON.stringify({ requireStaffMfa, reason: "e2e test of the staff MFA policy" }),
    });
  expect((await setPolicy(true)).status).toBe(200);
  try {
    const { context, page } = await newPage();
    await passwordSignIn(page, "agent@att.example", "Demo-2026!");
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe("/security");
    await page.getByText("Two-step verification is required for staff").waitFor();
    await page.goto(`${baseUrl}/lines`);
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe("/security");
    await context.close();
  } finally {
    expect((await setPolicy(false)).status).toBe(200);
  }
});

test("sign-up sends a verification email; following its link verifies the address", async () => {
  const email = freshEmail("signup");
  const { context, page } = await newPage(360, 740);
  await page.goto(`${baseUrl}/login`);
  await page.getByRole("link", { name: "New here? Create an account" }).click();
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Enter your name.").waitFor(); // errors at the fields, nothing created
  await page.getByLabel("Your name").fill("Nia New");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Use at least 8 characters.").waitFor();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText(`We sent a link to ${email}`, { exact: false }).waitFor();
  const user = await auth.getUserByEmail(email);
  expect(user.customClaims).toEqual({ role: "subscriber", operator: "ATT" });
  expect(user.emailVerified).toBe(false);

  const verify = await lastOobCode(email, "VERIFY_EMAIL");
  expect((await fetch(verify.oobLink)).ok).toBe(true);
  expect((await auth.getUserByEmail(email)).emailVerified).toBe(true);

  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: /Hello, Nia/ }).waitFor();
  await context.close();
});

test("forgot password: the same answer for any email, and a reset email for a real account", async () => {
  const { email } = await freshSubscriber("reset");
  const { context, page } = await newPage(360, 740);
  await page.goto(`${baseUrl}/forgot-password`);
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByText("Enter a valid email address", { exact: false }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByText(`If ${email} has an account`, { exact: false }).waitFor();
  const reset = await lastOobCode(email, "PASSWORD_RESET");
  expect(reset.oobLink).toContain("oobCode=");
  await context.close();
});

test("an emailed sign-in link signs the subscriber in without a password", async () => {
  const { email } = await freshSubscriber("emaillink");
  const { context, page } = await newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByRole("link", { name: "Email me a sign-in link" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me the link" }).click();
  await page.getByText(`Check ${email}`, { exact: false }).waitFor();
  const link = await lastOobCode(email, "EMAIL_SIGNIN");
  // The emulator's link carries the continue URL; open the portal page it points at, on this device.
  const continueUrl = new URL(link.oobLink).searchParams.get("continueUrl")!;
  const target = new URL(continueUrl);
  for (const [k, v] of new URL(link.oobLink).searchParams) target.searchParams.set(k, v);
  await page.goto(target.toString());
  await page.getByRole("heading", { name: /Hello, Test/ }).waitFor();
  await context.close();
});

test("the security page changes the password and never removes the last way to sign in", async () => {
  const { email } = await freshSubscriber("password");
  const { context, page } = await newPage(360, 740);
  await passwordSignIn(page, email);
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  await page.goto(`${baseUrl}/security`);
  const remove = page.getByRole("button", { name: "Remove" });
  await remove.waitFor();
  expect(await remove.isDisabled()).toBe(true);

  await page.getByLabel("Current password").fill("wrong-password");
  await page.getByLabel("New password").fill("New-Password-2026");
  await page.getByRole("button", { name: "Change password" }).click();
  // Only the current password was typed here: the message names it, not "the email or password".
  await page.getByText("That is not your current password. Check it and try again.").waitFor();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("Password changed.").waitFor();
  await context.close();

  const again = await newPage();
  await passwordSignIn(again.page, email, "New-Password-2026");
  await again.page.getByRole("heading", { name: /Hello/ }).waitFor();
  await again.context.close();
});

test("a subscriber turns the second step off after signing in with it", async () => {
  const email = freshEmail("mfa-off");
  const phone = freshPhoneNumber();
  const user = await auth.createUser({
    email,
    password: PASSWORD,
    emailVerified: true,
    displayName: "Test off",
    multiFactor: { enrolledFactors: [{ factorId: "phone", phoneNumber: phone }] },
  });
  await auth.setCustomUserClaims(user.uid, { role: "subscriber", operator: "ATT" });
  const { context, page } = await newPage();
  const before = await smsCodeCount(phone);
  await passwordSignIn(page, email);
  await page.getByRole("heading", { name: "Second step" }).waitFor();
  await enterNewCode(page, phone, before);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  await page.goto(`${baseUrl}/security`);
  await page.getByRole("button", { name: "Turn off" }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await page.getByText("Two-step verification removed for this phone.").waitFor();
  await expect.poll(async () => (await auth.getUser(user.uid)).multiFactor?.enrolledFactors.length ?? 0, POLL).toBe(0);
  // The portal took a new token after the change: its next request has the backend record it.
  await page.goto(`${baseUrl}/lines`);
  await expect
    .poll(() => serverRecorded(user.uid, "mfa.removed"), POLL)
    .toEqual([
      expect.objectContaining({
        before: { factor: "phone", phone: `•••• ${phone.slice(-4)}` },
        after: { source: "admin-user-record" },
      }),
    ]);
  await context.close();
});

test("the staff list shows a colleague invited by another admin without a reload (live updates)", async () => {
  const { context, page } = await newPage();
  await passwordSignIn(page, "admin@att.example", "Demo-2026!");
  await page.getByRole("heading", { name: /Hello/ }).waitFor();
  await page.goto(`${baseUrl}/staff`);
  await page.getByText("agent@att.example").waitFor();

  const invited = freshEmail("live-agent");
  const token = await signInWithPassword("admin@att.example");
  const res = await fetch(`${baseUrl}/api/v1/staff`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "x-operator": "ATT",
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    body: JSON.stringify({ email: invited, role: "agent", displayName: "Live Agent" }),
  });
  expect(res.status).toBe(201);
  await page.getByText(invited).waitFor();
  await context.close();
});
