import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { and, eq, gt, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountAlertLinks,
  accounts,
  auditEvents,
  lines,
  notifications,
  operators,
  outboxMessages,
  plans,
  subscriberProfiles,
  ticketMessages,
  tickets,
} from "../../server/db/schema";
import { alertAccountChange } from "../../server/domain/accountAlerts/alerts";
import { messageText } from "../../server/domain/outbox/messageText";
import { luhnDigit } from "../../server/domain/lines/simNumbers";
import type { AccountChange, ThisWasntMeResult } from "../../src/resources/accountAlerts";
import { signInWithPassword, startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";
import { expectProblem } from "../support/problems";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { clockPastSignInOf, waitFor } from "../support/waitFor";
import { stringMatching } from "../support/matchers";

// Account alerts (issue 27 item 5) on the real database (TEST_DB) and the Auth emulator. Each holder
// is a throwaway subscriber (signing one out everywhere must not touch the demo sign-ins parallel
// suites share) with two accounts, three lines and a profile whose contact points differ from the
// accounts', so "every contact point" is visible. Two backend instances: A answers, B must refuse.

const PASSWORD = "Alerts-2026!";
const THIS_WASNT_ME = "/api/v1/public/this-wasnt-me";
const RATE_LIMITED_IP = "198.51.100.99";

let a: TestBackend;
let b: TestInstance;
const created: string[] = [];
let ipCounter = 0;
/** A client address of its own per call, so that only the rate-limit test meets the limit. */
const freshIp = () => `198.51.100.${++ipCounter}`;

beforeAll(async () => {
  const options = { rateLimits: { thisWasntMePerIp: { max: 3, windowMs: 60 * 60_000 } } };
  a = await startTestBackend(options);
  b = await a.startAnotherInstance(options);
});

afterAll(async () => {
  if (!a) return;
  await Promise.all(created.map((uid) => a.auth.deleteUser(uid).catch(() => {})));
  await a.close();
});

let numberSeq = Math.floor(Math.random() * 9000);
const freshMsisdn = () => `+1303555${String(++numberSeq % 10_000).padStart(4, "0")}`;
const freshIccid = () => {
  const body = `8901260${String(Math.floor(Math.random() * 1e11)).padStart(11, "0")}`;
  return body + luhnDigit(body);
};

interface Holder {
  uid: string;
  email: string;
  token: string;
  accountEmail: string;
  profileEmail: string;
  accountPhone: string;
  profilePhone: string;
  lineIds: string[];
  numbers: string[];
  accountIds: string[];
}

/** A throwaway subscriber: two accounts (three active lines), a saved profile, signed in just now. */
async function newHolder(language: "en" | "es" = "en"): Promise<Holder> {
  const tag = randomUUID().slice(0, 8);
  const email = `alerts-${tag}@example.test`;
  const { uid } = await a.auth.createUser({ email, password: PASSWORD });
  created.push(uid);
  await a.auth.setCustomUserClaims(uid, { role: "subscriber", operator: "ATT" });
  const db = a.database.db;
  const [plan] = await db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.operatorCode, "ATT"), eq(plans.kind, "prepaid")))
    .limit(1);
  const accountEmail = `billing-${tag}@example.test`;
  const accountPhone = freshMsisdn();
  const made = await db
    .insert(accounts)
    .values(
      [0, 1].map((i) => ({
        operatorCode: "ATT",
        ownerUid: uid,
        name: `Alert Holder ${tag}`,
        email: accountEmail,
        phone: accountPhone,
        type: "prepaid" as const,
        createdAt: new Date(Date.now() - (2 - i) * 60_000),
      })),
    )
    .returning({ id: accounts.id });
  const numbers = [freshMsisdn(), freshMsisdn(), freshMsisdn()];
  const madeLines = await db
    .insert(lines)
    .values(
      numbers.map((msisdn, i) => ({
        operatorCode: "ATT",
        accountId: made[i === 2 ? 1 : 0]!.id,
        msisdn,
        iccid: freshIccid(),
        simType: "physical" as const,
        planId: plan!.id,
        status: "active" as const,
        cycleDay: 5,
      })),
    )
    .returning({ id: lines.id });
  const profileEmail = `me-${tag}@example.test`;
  const profilePhone = freshMsisdn();
  await db.insert(subscriberProfiles).values({
    operatorCode: "ATT",
    uid,
    details: { name: `Alert Holder ${tag}`, contactEmail: profileEmail, contactPhone: profilePhone, language },
  });
  return {
    uid,
    email,
    token: await signInWithPassword(email, PASSWORD),
    accountEmail,
    profileEmail,
    accountPhone,
    profilePhone,
    lineIds: madeLines.map((l) => l.id),
    numbers,
    accountIds: made.map((m) => m.id),
  };
}

/** The outbox messages and inbox notices of account alerts written since `since`, of one change. */
async function alertsSince(holder: Holder, since: Date, change: AccountChange) {
  const db = a.database.db;
  const outbox = (
    await db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.kind, "account.alert"), gt(outboxMessages.createdAt, since)))
  ).filter((m) => m.params.change === change);
  const inbox = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.recipientUid, holder.uid),
        eq(notifications.kind, "account.alert"),
        gt(notifications.createdAt, since),
      ),
    );
  return { outbox, inbox };
}

/** Asserts one alert of `change` went to the inbox and to every contact point the holder had; answers its token. */
async function expectAlerted(holder: Holder, since: Date, change: AccountChange, extra: { email?: string } = {}) {
  const { outbox, inbox } = await alertsSince(holder, since, change);
  expect(inbox).toHaveLength(1);
  const link = inbox[0]!.link!;
  expect(link).toMatch(/^\/this-wasnt-me#[A-Za-z0-9_-]{43}$/);
  expect(inbox[0]!.params).toMatchObject({ change, link, days: 7 });
  const emails = outbox.filter((m) => m.channel === "email").map((m) => m.recipient);
  const phones = outbox.filter((m) => m.channel === "sms").map((m) => m.recipient);
  expect(emails.sort()).toEqual(
    [holder.accountEmail, holder.profileEmail, ...(extra.email ? [extra.email] : [])].sort(),
  );
  // The accounts' phone, the profile's, and each active line (the accounts' phone is none of them here).
  expect(phones.sort()).toEqual([holder.accountPhone, holder.profilePhone, ...holder.numbers].sort());
  // Every message carries the one link, worded in the holder's language.
  for (const message of outbox) {
    expect(message.params.link).toBe(link);
    const words = messageText(message);
    expect(words.body).toContain(link);
    if (message.channel === "email") expect(words.subject).toMatch(/Security alert|Alerta de seguridad/);
  }
  return link.split("#")[1]!;
}

const act = (holder: Holder, lineId: string, action: string, body?: unknown) =>
  a.send("POST", `/api/v1/lines/${lineId}/actions/${action}`, { token: holder.token, body });

const press = (instance: TestInstance, token: unknown, remoteAddress = freshIp()) =>
  instance.send("POST", THIS_WASNT_ME, { operator: null, body: { token }, remoteAddress });

describe("each line change alerts the inbox, and by email and SMS every contact point the account had", () => {
  let holder: Holder;
  beforeAll(async () => {
    holder = await newHolder();
  });

  it("a SIM swap", async () => {
    const since = new Date(Date.now() - 1);
    const res = await act(holder, holder.lineIds[0]!, "swap-sim", { simType: "physical", iccid: freshIccid() });
    expect(res.statusCode, res.body).toBe(200);
    await expectAlerted(holder, since, "sim-swap");
  });

  it("an eSIM transfer", async () => {
    const upload = await a.send("POST", "/api/v1/files?name=id.jpg&purpose=id_document", {
      token: holder.token,
      body: SAMPLE_FILES.jpeg,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const since = new Date(Date.now() - 1);
    const res = await act(holder, holder.lineIds[1]!, "swap-sim", {
      simType: "esim",
      idDocumentFileId: upload.json<{ id: string }>().id,
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectAlerted(holder, since, "esim-transfer");
  });

  it("a port-out PIN", async () => {
    const since = new Date(Date.now() - 1);
    const res = await act(holder, holder.lineIds[2]!, "port-out-pin");
    expect(res.statusCode, res.body).toBe(200);
    await expectAlerted(holder, since, "port-out-pin");
  });

  it("a number lock, and an unlock", async () => {
    let since = new Date(Date.now() - 1);
    expect((await act(holder, holder.lineIds[2]!, "lock-number")).statusCode).toBe(200);
    await expectAlerted(holder, since, "number-lock");
    since = new Date(Date.now() - 1);
    expect((await act(holder, holder.lineIds[2]!, "unlock-number")).statusCode).toBe(200);
    await expectAlerted(holder, since, "number-lock");
  });

  it("a change refused (a SIM swap on a locked number) alerts nobody", async () => {
    await a.database.db.update(lines).set({ numberLocked: true }).where(eq(lines.id, holder.lineIds[0]!));
    const since = new Date(Date.now() - 1);
    const res = await act(holder, holder.lineIds[0]!, "swap-sim", { simType: "physical", iccid: freshIccid() });
    expectProblem(res, 409, "numberLocked");
    expect(await alertsSince(holder, since, "sim-swap")).toEqual({ outbox: [], inbox: [] });
  });
});

describe("changes to the sign-in alert the contact points from before the change", () => {
  it("an email change: the OLD address is told, in the holder's saved language", async () => {
    const holder = await newHolder("es");
    const oldEmail = `old-${randomUUID().slice(0, 8)}@example.test`;
    const since = new Date(Date.now() - 1);
    await a.database.db.transaction((tx) =>
      alertAccountChange(tx, {
        operator: "ATT",
        uid: holder.uid,
        change: "email-change",
        contacts: { email: oldEmail },
        requestId: "test",
      }),
    );
    await expectAlerted(holder, since, "email-change", { email: oldEmail });
    const [toOld] = (await alertsSince(holder, since, "email-change")).outbox.filter((m) => m.recipient === oldEmail);
    expect(toOld!.locale).toBe("es");
    expect(messageText(toOld!)).toMatchObject({
      subject: "Alerta de seguridad: un cambio en tu cuenta",
      body: stringMatching(/Se cambió el correo electrónico de tu cuenta\.[\s\S]*No fui yo/),
    });
  });

  it("a phone change: the OLD number gets the SMS", async () => {
    const holder = await newHolder();
    const oldPhone = freshMsisdn();
    const since = new Date(Date.now() - 1);
    await a.database.db.transaction((tx) =>
      alertAccountChange(tx, {
        operator: "ATT",
        uid: holder.uid,
        change: "phone-change",
        contacts: { phone: oldPhone },
        requestId: "test",
      }),
    );
    const { outbox } = await alertsSince(holder, since, "phone-change");
    expect(outbox.filter((m) => m.channel === "sms").map((m) => m.recipient)).toContain(oldPhone);
  });
});

describe("the link in emails and SMS", () => {
  it("starts with the operator's portal address when it has one set; the inbox keeps the portal's path", async () => {
    const holder = await newHolder();
    const db = a.database.db;
    const [att] = await db.select({ settings: operators.settings }).from(operators).where(eq(operators.code, "ATT"));
    await db
      .update(operators)
      .set({ settings: { ...att!.settings, portalUrl: "https://portal.att.example/" } })
      .where(eq(operators.code, "ATT"));
    try {
      const since = new Date(Date.now() - 1);
      await db.transaction((tx) =>
        alertAccountChange(tx, { operator: "ATT", uid: holder.uid, change: "sign-in-method", requestId: "test" }),
      );
      const { outbox, inbox } = await alertsSince(holder, since, "sign-in-method");
      const token = inbox[0]!.link!.split("#")[1]!;
      expect(inbox[0]!.link).toBe(`/this-wasnt-me#${token}`);
      expect(outbox.length).toBeGreaterThan(0);
      for (const message of outbox) {
        expect(message.params.link).toBe(`https://portal.att.example/this-wasnt-me#${token}`);
        expect(messageText(message).body).toContain(`https://portal.att.example/this-wasnt-me#${token}`);
      }
    } finally {
      await db.update(operators).set({ settings: att!.settings }).where(eq(operators.code, "ATT"));
    }
  });
});

describe('"This wasn\'t me"', () => {
  it("locks every line, signs out every session on both instances, opens an urgent fraud ticket, once", async () => {
    const holder = await newHolder();
    const since = new Date(Date.now() - 1);
    expect((await act(holder, holder.lineIds[1]!, "port-out-pin")).statusCode).toBe(200);
    const token = await expectAlerted(holder, since, "port-out-pin");
    // The holder's session is cached on B, and was signed in before the press (revocation is in whole seconds).
    expect((await b.get("/api/v1/lines", { token: holder.token })).statusCode).toBe(200);
    await clockPastSignInOf(holder.token);
    const before = (await a.auth.getUser(holder.uid)).tokensValidAfterTime;

    const res = await press(a, token);
    const answeredAt = performance.now();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ThisWasntMeResult>()).toEqual({ linesLocked: 3, signedOut: true, ticketOpened: true });

    // Every session: Firebase's refresh tokens, and both instances refuse the old ID token.
    expect(Date.parse((await a.auth.getUser(holder.uid)).tokensValidAfterTime!)).toBeGreaterThan(
      Date.parse(before ?? "1970-01-01"),
    );
    const { value: refusal } = await waitFor("instance B to refuse the holder's old token", async () => {
      const answer = await b.get("/api/v1/lines", { token: holder.token });
      return answer.statusCode === 200 ? false : answer;
    });
    console.log(`"This wasn't me": B refused ${(performance.now() - answeredAt).toFixed(1)} ms after A answered`);
    expect(refusal.statusCode).toBe(401);
    expect((await a.get("/api/v1/lines", { token: holder.token })).statusCode).toBe(401);

    const db = a.database.db;
    const locked = await db
      .select({ numberLocked: lines.numberLocked, pin: lines.portOutPinHash })
      .from(lines)
      .where(inArray(lines.id, holder.lineIds));
    expect(locked).toEqual(holder.lineIds.map(() => ({ numberLocked: true, pin: null }))); // the PIN died with the lock

    const [ticket] = await db.select().from(tickets).where(inArray(tickets.accountId, holder.accountIds));
    expect(ticket).toMatchObject({
      category: "fraud",
      priority: "urgent",
      status: "acknowledged",
      accountId: holder.accountIds[0], // the account of the line the PIN was issued for
      createdBy: holder.uid,
      createdByRole: "subscriber",
    });
    const [opening] = await db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticket!.id));
    expect(opening!.body).toMatch(/This wasn't me[\s\S]*A PIN to move •••\d{4} to another carrier was issued/);

    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "account.this_wasnt_me"), eq(auditEvents.targetId, holder.uid)));
    expect(audit).toMatchObject({ actorUid: holder.uid, actorRole: "subscriber", targetType: "user" });
    expect(audit!.after).toMatchObject({ change: "port-out-pin", ticketId: ticket!.id });

    // One use: the same link again, on either instance, is refused in words and changes nothing more.
    const again = expectProblem(await press(b, token), 410, "token");
    expect(again.detail).toMatch(/already used/);
    expect(await db.select().from(tickets).where(inArray(tickets.accountId, holder.accountIds))).toHaveLength(1);
  });

  it("expires after 7 days: 410, and nothing is locked", async () => {
    const holder = await newHolder();
    const since = new Date(Date.now() - 1);
    await a.database.db.transaction((tx) =>
      alertAccountChange(tx, { operator: "ATT", uid: holder.uid, change: "mfa-change", requestId: "test" }),
    );
    const token = await expectAlerted(holder, since, "mfa-change");
    const [link] = await a.database.db
      .select()
      .from(accountAlertLinks)
      .where(and(eq(accountAlertLinks.uid, holder.uid), eq(accountAlertLinks.change, "mfa-change")));
    // Stored valid for 7 days from the alert, and only as a hash of the token.
    expect(link!.expiresAt.getTime() - link!.createdAt.getTime()).toBeGreaterThan(7 * 86_400_000 - 5_000);
    expect(link!.expiresAt.getTime() - link!.createdAt.getTime()).toBeLessThanOrEqual(7 * 86_400_000 + 5_000);
    expect(JSON.stringify(link)).not.toContain(token);
    // 7 days later (the stored expiry moved, not the clock).
    await a.database.db
      .update(accountAlertLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountAlertLinks.id, link!.id));

    const refused = expectProblem(await press(a, token), 410, "token");
    expect(refused.detail).toMatch(/expired/);
    const state = await a.database.db
      .select({ numberLocked: lines.numberLocked })
      .from(lines)
      .where(inArray(lines.id, holder.lineIds));
    expect(state.every((l) => !l.numberLocked)).toBe(true);
    expect((await a.get("/api/v1/lines", { token: holder.token })).statusCode).toBe(200); // still signed in
    const [after] = await a.database.db.select().from(accountAlertLinks).where(eq(accountAlertLinks.id, link!.id));
    expect(after!.usedAt).toBeNull();
  });

  it("a token we never sent is 404; a malformed or missing one 400 at token, in the reader's language", async () => {
    const unknown = expectProblem(await press(a, "A".repeat(43)), 404);
    expect(unknown.detail).toMatch(/not one we sent/);
    expectProblem(await press(a, "too-short"), 400, "token");
    expectProblem(await press(a, 12345), 400, "token");
    const missing = await a.send("POST", THIS_WASNT_ME, { operator: null, body: {}, remoteAddress: freshIp() });
    expectProblem(missing, 400, "token");
    const spanish = await a.send("POST", THIS_WASNT_ME, {
      operator: null,
      body: { token: "B".repeat(43) },
      headers: { "accept-language": "es" },
      remoteAddress: freshIp(),
    });
    expect(expectProblem(spanish, 404).detail).toMatch(/no es uno de los que enviamos/);
  });

  it("is rate limited per client address, bad tokens counted as good ones", async () => {
    for (let i = 0; i < 3; i++) expectProblem(await press(a, "C".repeat(43), RATE_LIMITED_IP), 404);
    const res = await press(b, "C".repeat(43), RATE_LIMITED_IP); // the count is shared by the instances
    expect(expectProblem(res, 429).detail).toMatch(/Too many tries/);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(60);
    // Another address is not held back.
    expectProblem(await press(a, "C".repeat(43)), 404);
  });
});
