import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { outboxMessages } from "../../server/db/schema";
import { messageText, type MessageWords } from "../../server/domain/outbox/messageText";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/resources/auditEvents";
import type { StaffInviteResult, StaffMember } from "../../src/resources/staff";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, AGENT, ADMIN, TMO_ADMIN } from "../support/fixtures";
import { expectProblem } from "../support/problems";
import { invitationLinkFor, seededAdmin, setPasswordWithLink } from "../support/staffInvitations";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { anyString, objectContaining, stringMatching } from "../support/matchers";

// Staff administration against the real database (TEST_DB) and the real Auth emulator. Every user
// whose role or state changes is invited here: the demo sign-ins are shared with parallel suites.
const PASSWORD = "Throwaway-2026!";

let backend: TestBackend;
const invited: string[] = [];

const paths = (problem: { errors?: { path: string }[] }) => problem.errors?.map((e) => e.path) ?? [];
const freshEmail = (tag: string) => `${tag}-${randomUUID()}@example.test`;

function invite(
  body: unknown,
  options: { key?: string | null; as?: string; operator?: string; language?: string } = {},
) {
  const headers: Record<string, string> = {
    ...(options.key === null ? {} : { "idempotency-key": options.key ?? randomUUID() }),
    ...(options.language ? { "accept-language": options.language } : {}),
  };
  return backend.send("POST", "/api/v1/staff", { as: options.as ?? ADMIN, operator: options.operator, body, headers });
}

/** Invites a staff member and gives them a password, so tests can sign in as them. */
async function invitedMember(role: "agent" | "admin", tag: string) {
  const res = await invite({ email: freshEmail(tag), role, displayName: `Test ${tag}` });
  expect(res.statusCode, res.body).toBe(201);
  const { member } = res.json<StaffInviteResult>();
  invited.push(member.uid);
  await backend.auth.updateUser(member.uid, { password: PASSWORD });
  return member;
}

const patch = (uid: string, body: unknown, as = ADMIN, operator?: string) =>
  backend.send("PATCH", `/api/v1/staff/${uid}`, { as, operator, body });

async function staffList(query = "", as = ADMIN, operator?: string) {
  const res = await backend.get(`/api/v1/staff${query}`, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: StaffMember[]; total: number }>();
}

async function trail(action: string, targetId: string) {
  const res = await backend.get(`/api/v1/audit-events?filter[action]=${action}&filter[targetId]=${targetId}`, {
    as: ADMIN,
  });
  return res.json<{ data: AuditEvent[] }>().data;
}

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  if (backend) {
    await Promise.all(invited.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
    await backend.close();
  }
});

describe("GET /api/v1/staff", () => {
  it("401 without a token; 403 for subscribers and agents", async () => {
    expectProblem(await backend.get("/api/v1/staff"), 401);
    expectProblem(await backend.get("/api/v1/staff", { as: ALEX }), 403);
    expectProblem(await backend.get("/api/v1/staff", { as: AGENT }), 403);
    expectProblem(await backend.get("/api/v1/staff", { as: ADMIN, operator: "TMO" }), 403);
  });

  it("the admin sees the operator's seeded staff, never another operator's", async () => {
    const att = await staffList();
    expect(att.total).toBe(2);
    expect(att.data.map((m) => [m.uid, m.email, m.role, m.disabled])).toEqual([
      ["demo-admin", "admin@att.example", "admin", false],
      ["demo-agent", "agent@att.example", "agent", false],
    ]);
    expect(att.data[1]).toMatchObject({
      displayName: "Casey Agent",
      invitedBy: null,
      createdAt: anyString(),
      updatedAt: anyString(),
    });
    const tmo = await staffList("", TMO_ADMIN, "TMO");
    expect(tmo.data.map((m) => m.uid).sort()).toEqual(["tmo-admin", "tmo-agent"]);
  });

  it("filters, search and sort", async () => {
    expect((await staffList("?filter[role]=agent")).data.map((m) => m.uid)).toEqual(["demo-agent"]);
    expect((await staffList("?filter[disabled]=true")).total).toBe(0);
    expect((await staffList("?q=morgan")).data.map((m) => m.uid)).toEqual(["demo-admin"]);
    expect((await staffList("?q=AGENT@att")).data.map((m) => m.uid)).toEqual(["demo-agent"]);
    expect((await staffList("?sort=-email")).data.map((m) => m.uid)).toEqual(["demo-agent", "demo-admin"]);
    expect((await staffList("?sort=-role,email")).data.map((m) => m.uid)).toEqual(["demo-agent", "demo-admin"]);
  });

  it("400 naming the parameter", async () => {
    for (const [query, path] of [
      ["sort=uid", "sort"],
      ["filter[disabled]=maybe", "filter[disabled]"],
      ["filter[role]=owner", "filter[role]"],
      ["filter[email]=x", "filter[email]"],
      ["pageSize=101", "pageSize"],
    ]) {
      expect(paths(expectProblem(await backend.get(`/api/v1/staff?${query}`, { as: ADMIN }), 400))).toContain(path);
    }
  });
});

describe("POST /api/v1/staff", () => {
  it("401 without a token; 403 for subscribers, agents and admins of another operator", async () => {
    const body = { email: freshEmail("nobody"), role: "agent" };
    expectProblem(
      await backend.send("POST", "/api/v1/staff", { body, headers: { "idempotency-key": randomUUID() } }),
      401,
    );
    expectProblem(await invite(body, { as: ALEX }), 403);
    expectProblem(await invite(body, { as: AGENT }), 403);
    expectProblem(await invite(body, { as: TMO_ADMIN }), 403); // X-Operator ATT: not their operator
  });

  it("400 naming the field or the missing Idempotency-Key", async () => {
    expect(
      paths(expectProblem(await invite({ email: freshEmail("nokey"), role: "agent" }, { key: null }), 400)),
    ).toEqual(["idempotency-key"]);
    expect(paths(expectProblem(await invite({ email: "not-an-email", role: "agent" }), 400))).toEqual(["email"]);
    expect(paths(expectProblem(await invite({ email: freshEmail("role"), role: "subscriber" }), 400))).toEqual([
      "role",
    ]);
    expect(
      paths(expectProblem(await invite({ email: freshEmail("name"), role: "agent", displayName: "" }), 400)),
    ).toEqual(["displayName"]);
  });

  it("creates the Firebase user with claims, lists it, replays the same key and refuses the email twice", async () => {
    const email = freshEmail("Invitee").replace("invitee", "Invitee");
    const key = randomUUID();
    const res = await invite({ email, role: "agent", displayName: "New Agent" }, { key });
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json<StaffInviteResult>();
    invited.push(result.member.uid);
    expect(result.member).toMatchObject({
      email: email.toLowerCase(),
      role: "agent",
      displayName: "New Agent",
      disabled: false,
      invitedBy: "demo-admin",
      confirmed: false,
      confirmedBy: null,
    });
    // The link goes to the invitee's email (outbox), never back to the inviter (issue 26).
    expect(result.invitationSentTo).toBe(email.toLowerCase());
    expect(res.body).not.toMatch(/oobCode|passwordSetupLink/);
    const link = await invitationLinkFor(backend.database.db, email);
    expect(link).toMatch(/^https?:\/\/.*oobCode=/);

    const user = await backend.auth.getUser(result.member.uid);
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      emailVerified: false,
      disabled: false,
      customClaims: { role: "agent", operator: "ATT" },
    });
    // The invitee sets their password with the emailed link (which also proves the address is theirs).
    await setPasswordWithLink(link, PASSWORD);
    expect(await signInWithPassword(email.toLowerCase(), PASSWORD)).toBeTruthy();
    expect((await staffList(`?q=${encodeURIComponent(email.toLowerCase())}`)).data).toEqual([result.member]);

    // The same key replays the first response: no second user.
    const again = await invite({ email, role: "agent", displayName: "New Agent" }, { key });
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(result);
    const emailed = await backend.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.recipient, email.toLowerCase()), eq(outboxMessages.kind, "staff.invitation")));
    expect(emailed).toHaveLength(1);
    // The same key with another request is refused; another key with the same email is a conflict.
    expect(
      paths(expectProblem(await invite({ email, role: "admin", displayName: "New Agent" }, { key }), 422)),
    ).toEqual(["idempotency-key"]);
    expect(paths(expectProblem(await invite({ email, role: "agent" }), 409))).toEqual(["email"]);
    expect((await staffList(`?q=${encodeURIComponent(email.toLowerCase())}`)).total).toBe(1);

    const events = await trail("staff.invite", result.member.uid);
    expect(events).toEqual([
      objectContaining({
        actorUid: "demo-admin",
        actorRole: "admin",
        after: { email: email.toLowerCase(), role: "agent", displayName: "New Agent" },
      }),
    ]);
  });

  it("the invitation email is worded in the inviting page's language (issue 25): the invitee has no profile yet", async () => {
    const sent: Record<string, MessageWords & { locale: string }> = {};
    for (const [tag, language] of [
      ["Spanish", "es-419,es;q=0.9"],
      ["English", undefined],
    ] as const) {
      const email = freshEmail(tag);
      const res = await invite({ email, role: "agent", displayName: "Nueva Agente" }, { language });
      expect(res.statusCode, res.body).toBe(201);
      invited.push(res.json<StaffInviteResult>().member.uid);
      const [message] = await backend.database.db
        .select()
        .from(outboxMessages)
        .where(and(eq(outboxMessages.recipient, email.toLowerCase()), eq(outboxMessages.kind, "staff.invitation")));
      sent[tag] = { locale: message!.locale, ...messageText(message!) };
    }
    const link = stringMatching(/\nhttps?:\/\/\S*oobCode=\S+\n/);
    expect(sent.Spanish).toEqual({
      locale: "es",
      subject: "Te invitamos al portal de autogestión",
      body: stringMatching(/^Hola, Nueva Agente:\n\n.*Tu rol: Agente de atención\./),
    });
    expect(sent.Spanish!.body).toEqual(link);
    expect(sent.Spanish!.body).not.toMatch(/\b(the|you|your|role|password)\b/i);
    expect(sent.English).toEqual({
      locale: "en",
      subject: "You are invited to the self-service portal",
      body: stringMatching(/^Hello Nueva Agente,\n\n.*Your role: Care agent\./),
    });
    expect(sent.English!.body).toEqual(link);
  });
});

describe("PATCH /api/v1/staff/:uid", () => {
  it("401 without a token; 403 for agents; 404 for another operator's or unknown staff", async () => {
    expectProblem(
      await backend.send("PATCH", "/api/v1/staff/demo-agent", { body: { disabled: true, reason: "test" } }),
      401,
    );
    expectProblem(await patch("demo-agent", { disabled: true, reason: "agent tries" }, AGENT), 403);
    expectProblem(await patch("demo-agent", { disabled: true, reason: "not yours" }, TMO_ADMIN, "TMO"), 404);
    expectProblem(await patch("demo-alex", { role: "admin", reason: "not staff" }), 404);
    expectProblem(await patch("no-such-uid", { role: "admin", reason: "nobody" }), 404);
    expect((await staffList("?filter[role]=agent")).data.find((m) => m.uid === "demo-agent")?.disabled).toBe(false);
  });

  it("400 naming the field", async () => {
    expect(paths(expectProblem(await patch("demo-agent", { reason: "nothing to change" }), 400))).toEqual(["role"]);
    expect(paths(expectProblem(await patch("demo-agent", { role: "admin", reason: "no" }), 400))).toEqual(["reason"]);
    expect(paths(expectProblem(await patch("demo-agent", { role: "root", reason: "promote" }), 400))).toEqual(["role"]);
    expect(paths(expectProblem(await patch("demo-agent", { disabled: "yes", reason: "disable" }), 400))).toEqual([
      "disabled",
    ]);
  });

  it("an admin cannot demote or disable themselves: 422", async () => {
    expectProblem(await patch("demo-admin", { role: "agent", reason: "step down" }), 422);
    expectProblem(await patch("demo-admin", { disabled: true, reason: "leaving" }), 422);
  });

  it("a role change: the old token is refused, a fresh one carries the new role", async () => {
    const member = await invitedMember("agent", "promote");
    const oldToken = await signInWithPassword(member.email, PASSWORD);
    expect((await backend.get("/api/v1/lines", { token: oldToken })).statusCode).toBe(200);
    expectProblem(await backend.get("/api/v1/staff", { token: oldToken }), 403);

    const res = await patch(member.uid, { role: "admin", reason: "team lead" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ uid: member.uid, role: "admin", disabled: false });
    expect((await backend.auth.getUser(member.uid)).customClaims).toEqual({ role: "admin", operator: "ATT" });

    expectProblem(await backend.get("/api/v1/lines", { token: oldToken }), 401);
    const fresh = await signInWithPassword(member.email, PASSWORD);
    expect((await backend.get("/api/v1/me", { token: fresh })).json()).toMatchObject({
      role: "admin",
      operator: "ATT",
    });
    expect((await backend.get("/api/v1/staff", { token: fresh })).statusCode).toBe(200);

    expect(await trail("staff.role_changed", member.uid)).toEqual([
      objectContaining({
        actorUid: "demo-admin",
        before: { role: "agent" },
        after: { role: "admin" },
        reason: "team lead",
      }),
    ]);
  });

  it("disable refuses the member's token at once; enable lets them sign in again", async () => {
    const member = await invitedMember("agent", "disable");
    const token = await signInWithPassword(member.email, PASSWORD);
    expect((await backend.get("/api/v1/lines", { token })).statusCode).toBe(200);

    const res = await patch(member.uid, { disabled: true, reason: "left the company" });
    expect(res.json()).toMatchObject({ uid: member.uid, disabled: true });
    expectProblem(await backend.get("/api/v1/lines", { token }), 401);
    await expect(signInWithPassword(member.email, PASSWORD)).rejects.toThrow(/USER_DISABLED/);
    expect((await staffList("?filter[disabled]=true")).data.map((m) => m.uid)).toEqual([member.uid]);

    const enabled = await patch(member.uid, { disabled: false, reason: "came back" });
    expect(enabled.json()).toMatchObject({ disabled: false });
    expect(
      (await backend.get("/api/v1/lines", { token: await signInWithPassword(member.email, PASSWORD) })).statusCode,
    ).toBe(200);

    expect(await trail("staff.disabled", member.uid)).toEqual([
      objectContaining({ before: { disabled: false }, after: { disabled: true }, reason: "left the company" }),
    ]);
    expect(await trail("staff.enabled", member.uid)).toEqual([
      objectContaining({ after: { disabled: false }, reason: "came back" }),
    ]);
  });

  it("a patch that changes nothing writes nothing", async () => {
    const before = (await staffList("?filter[role]=agent")).data.find((m) => m.uid === "demo-agent")!;
    const res = await patch("demo-agent", { role: "agent", disabled: false, reason: "no change" });
    expect(res.json()).toEqual(before);
    expect(await trail("staff.role_changed", "demo-agent")).toEqual([]);
  });
});

// Issue 26, item 1: another admin than the inviter confirms a new member before they decide approvals.
describe("POST /api/v1/staff/:uid/actions/confirm", () => {
  const confirm = (
    uid: string,
    who: { as?: string; token?: string; operator?: string },
    body: unknown = { reason: "met them at onboarding" },
  ) => backend.send("POST", `/api/v1/staff/${uid}/actions/confirm`, { ...who, body });

  it("only an admin other than the inviter, trusted themselves, confirms a new member, once, with a reason; audited", async () => {
    const member = await invitedMember("admin", "confirm");
    const other = await seededAdmin(backend, "confirmer");
    invited.push(other.uid);
    expectProblem(await confirm(member.uid, {}), 401);
    expectProblem(await confirm(member.uid, { as: AGENT }), 403);
    expectProblem(await confirm(member.uid, { as: TMO_ADMIN, operator: "TMO" }), 404);
    expect(paths(expectProblem(await confirm(member.uid, { as: ADMIN }), 403))).toEqual(["invitedBy"]);
    expect(
      paths(expectProblem(await confirm(member.uid, { token: await signInWithPassword(member.email, PASSWORD) }), 403)),
    ).toEqual(["uid"]);
    // Two unconfirmed invitees of one admin cannot vouch for each other.
    const sibling = await invitedMember("admin", "sibling");
    const problem = expectProblem(
      await confirm(member.uid, { token: await signInWithPassword(sibling.email, PASSWORD) }),
      403,
      "confirmedBy",
    );
    expect(problem.type).toBe(PROBLEM_TYPES.staffNotConfirmed);
    expect(paths(expectProblem(await confirm(member.uid, { token: other.token }, {}), 400))).toEqual(["reason"]);
    expect((await staffList(`?q=${encodeURIComponent(member.email)}`)).data[0]).toMatchObject({
      confirmed: false,
      confirmedBy: null,
    });

    const res = await confirm(member.uid, { token: other.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      uid: member.uid,
      confirmed: true,
      confirmedBy: other.uid,
      confirmedAt: anyString(),
      invitedBy: "demo-admin",
    });
    expectProblem(await confirm(member.uid, { token: other.token }), 409, "confirmed");
    // Seeded staff have no inviter: there is nothing to confirm.
    expectProblem(await confirm("demo-agent", { token: other.token }), 409, "confirmed");
    expect(await trail("staff.confirm", member.uid)).toEqual([
      objectContaining({
        actorUid: other.uid,
        actorRole: "admin",
        reason: "met them at onboarding",
        before: objectContaining({ confirmed: false }),
        after: objectContaining({ confirmed: true, confirmedBy: other.uid }),
      }),
    ]);
  });
});

describe("OpenAPI", () => {
  it("describes the staff routes with the Idempotency-Key header", async () => {
    const doc = (await backend.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
    }>();
    expect(doc.paths["/api/v1/staff"]?.get).toBeDefined();
    expect(doc.paths["/api/v1/staff/{id}"]?.patch).toBeDefined();
    expect(doc.paths["/api/v1/staff"]?.post?.parameters).toEqual(
      expect.arrayContaining([objectContaining({ in: "header", name: "idempotency-key", required: true })]),
    );
  });
});
