import type { FastifyInstance } from "fastify";
import { and, count, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import { auditEvents, lines, notifications, orders } from "../../server/db/schema";
import { createSecretBox, LOCAL_SECRETS_KEY, verifySecret } from "../../server/lib/secretBox";
import type { Line } from "../../src/resources/lines";
import type { Order } from "../../src/resources/orders";
import type { Notification } from "../../src/resources/notifications";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { withoutUuids } from "../support/withoutUuids";

// Domain actions on lines (issue 8) through the route factory, on the real database (TEST_DB) and the
// real Auth emulator: every row of the contract table, each refusal changing nothing.
const LINES = "/api/v1/lines";
const UID = { alex: "demo-alex", sam: "demo-sam" };

type ActionAnswer = Line & {
  result?: Record<string, string | null>;
  order?: { id: string; type: string; state: string };
};

let backend: TestBackend;
/** A second backend on the same database that counts every sign-in as too old for re-authenticated actions. */
let strict: FastifyInstance;
let alexPrepaid: Line;
let alexPostpaid: Line;
let samLine: Line;
let tmoLineId: string;

/** POST an action as a user (a token signed in just now unless one is given). */
async function act(
  id: string,
  action: string,
  as: string,
  body?: Record<string, unknown>,
  options: { operator?: string; token?: string; preview?: boolean } = {},
) {
  const token = options.token ?? (await signInWithPassword(as));
  return backend.send("POST", `${LINES}/${id}/actions/${action}${options.preview ? "/preview" : ""}`, {
    token,
    body,
    operator: options.operator,
  });
}

async function actOk(id: string, action: string, as: string, body?: Record<string, unknown>): Promise<ActionAnswer> {
  const res = await act(id, action, as, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ActionAnswer>();
}

/** Uploads a small photo as a user (an ID document unless told) and answers its id. */
async function upload(as: string, purpose: "id_document" | "attachment" = "id_document"): Promise<string> {
  const res = await backend.send("POST", `/api/v1/files?name=id.jpg&purpose=${purpose}`, {
    as,
    body: SAMPLE_FILES.jpeg,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

async function getLine(id: string, as = ADMIN): Promise<Line> {
  const res = await backend.get(`${LINES}/${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Line>();
}

/** A line back to active, unlocked, without a PIN, as seeded (between tests). */
async function resetLine(id: string) {
  await backend.database.db
    .update(lines)
    .set({
      status: "active",
      suspendReason: null,
      numberLocked: false,
      portOutPinHash: null,
      portOutPinExpiresAt: null,
    })
    .where(eq(lines.id, id));
}

const countRows = async (table: typeof orders | typeof notifications) =>
  (await backend.database.db.select({ n: count() }).from(table))[0]!.n;

async function snapshot() {
  return {
    orders: await countRows(orders),
    notices: await countRows(notifications),
    // Audited writes; each act() signs in afresh, and the server records those sign-ins.
    audit: (
      await backend.database.db
        .select({ n: count() })
        .from(auditEvents)
        .where(ne(auditEvents.action, "identity.signed_in"))
    )[0]!.n,
  };
}

async function noticesOf(uid: string) {
  return backend.database.db.select().from(notifications).where(eq(notifications.recipientUid, uid));
}

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  strict = await buildApp({
    database: backend.database,
    verifier: createTokenVerifier(backend.auth),
    auth: backend.auth,
    operator: "ATT",
    logLevel: "silent",
    reauthMaxAgeSeconds: -1,
  });
  const own = async (as: string, operator?: string) =>
    (await backend.get(`${LINES}?sort=msisdn`, { as, operator })).json<{ data: Line[] }>().data;
  [alexPrepaid, alexPostpaid] = (await own(ALEX)) as [Line, Line];
  [samLine] = (await own(SAM)) as [Line];
  tmoLineId = (await own(TAYLOR, "TMO"))[0]!.id;
});

afterAll(async () => {
  await strict?.close();
  await backend?.close();
});

describe("refusals that change nothing", () => {
  it("401 without a token, 404 for another subscriber's line, 403 for another operator's user, 404 across operators", async () => {
    const before = await snapshot();
    expectProblem(
      await backend.send("POST", `${LINES}/${alexPrepaid.id}/actions/suspend`, { body: { suspendReason: "lost" } }),
      401,
    );
    expectProblem(await act(alexPrepaid.id, "suspend", SAM, { suspendReason: "lost" }), 404);
    expectProblem(await act(alexPrepaid.id, "suspend", TAYLOR, { suspendReason: "lost" }), 403);
    expectProblem(await act(tmoLineId, "suspend", ALEX, { suspendReason: "lost" }), 404);
    expectProblem(await act(alexPrepaid.id, "suspend", TAYLOR, { suspendReason: "lost" }, { operator: "TMO" }), 404);
    expect(await snapshot()).toEqual(before);
    expect((await getLine(alexPrepaid.id)).status).toBe("active");
  });

  it("400 naming the field: an unknown reason, a missing one, an unknown field, a malformed id", async () => {
    const before = await snapshot();
    expectProblem(await act(alexPrepaid.id, "suspend", ALEX, { suspendReason: "broken" }), 400, "suspendReason");
    expectProblem(await act(alexPrepaid.id, "suspend", ALEX, {}), 400, "suspendReason");
    expectProblem(await act(alexPrepaid.id, "suspend", ALEX, { suspendReason: "lost", color: "red" }), 400);
    expectProblem(await act("not-a-uuid", "suspend", ALEX, { suspendReason: "lost" }), 400, "id");
    expect(await snapshot()).toEqual(before);
  });

  it("403 for a role the action is not declared for (agents cannot lock numbers or issue port-out PINs)", async () => {
    expectProblem(await act(samLine.id, "lock-number", AGENT, { reason: "asked by phone" }), 403);
    expectProblem(await act(samLine.id, "port-out-pin", AGENT, { reason: "asked by phone" }), 403);
    expectProblem(await act(samLine.id, "port-out-pin", ADMIN, { reason: "asked by phone" }), 403);
  });
});

describe("suspend and restore", () => {
  it("the holder suspends a lost line: one order carried out at once, a notice, an audit row, and the state named on a second try", async () => {
    await resetLine(alexPrepaid.id);
    const answer = await actOk(alexPrepaid.id, "suspend", ALEX, { suspendReason: "lost" });
    expect(answer).toMatchObject({ id: alexPrepaid.id, status: "suspended", suspendReason: "lost" });
    expect(answer.order).toMatchObject({ type: "suspend", state: "completed" });

    const order = (await backend.get(`/api/v1/orders/${answer.order!.id}`, { as: ALEX })).json<Order>();
    expect(order).toMatchObject({
      type: "suspend",
      state: "completed",
      lineId: alexPrepaid.id,
      msisdn: alexPrepaid.msisdn,
      requestedByRole: "subscriber",
      details: { suspendReason: "lost" },
      idDocumentFileId: null,
    });
    expect(order.timeline.map((s) => s.state)).toEqual(["acknowledged", "in_progress", "completed"]);

    const notices = await noticesOf(UID.alex);
    expect(notices.find((n) => n.kind === "line.suspended")?.params).toMatchObject({
      msisdn: alexPrepaid.msisdn,
      byRole: "subscriber",
      suspendReason: "lost",
    });

    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.suspend"), eq(auditEvents.targetId, alexPrepaid.id)));
    expect(audit).toMatchObject({ actorUid: UID.alex, actorRole: "subscriber", targetType: "lines" });
    expect(audit!.before).toMatchObject({ status: "active" });
    expect(audit!.after).toMatchObject({ status: "suspended", suspendReason: "lost" });

    const before = await snapshot();
    const again = expectProblem(await act(alexPrepaid.id, "suspend", ALEX, { suspendReason: "lost" }), 409, "status");
    expect(again.detail).toMatch(/it is suspended/);
    expect(await snapshot()).toEqual(before);
  });

  it("restoring a line suspended as lost asks the holder to sign in again; a fresh sign-in restores it", async () => {
    await resetLine(alexPrepaid.id);
    await actOk(alexPrepaid.id, "suspend", ALEX, { suspendReason: "stolen" });
    const token = await signInWithPassword(ALEX);
    const stale = await strict.inject({
      method: "POST",
      url: `${LINES}/${alexPrepaid.id}/actions/restore`,
      headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
    });
    expect(expectProblem(stale, 403).type).toBe(PROBLEM_TYPES.reauthRequired);
    expect((await getLine(alexPrepaid.id)).status).toBe("suspended");
    const restored = await actOk(alexPrepaid.id, "restore", ALEX);
    expect(restored).toMatchObject({
      status: "active",
      suspendReason: null,
      order: { type: "restore", state: "completed" },
    });
    expectProblem(await act(alexPrepaid.id, "restore", ALEX), 409, "status");
  });

  it("a line suspended at the holder's request is restored without a new sign-in", async () => {
    await resetLine(alexPostpaid.id);
    await actOk(alexPostpaid.id, "suspend", ALEX, { suspendReason: "request" });
    const token = await signInWithPassword(ALEX);
    const res = await strict.inject({
      method: "POST",
      url: `${LINES}/${alexPostpaid.id}/actions/restore`,
      headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("a subscriber cannot restore a line suspended for an unpaid bill (422); an agent can, with a reason", async () => {
    await backend.database.db
      .update(lines)
      .set({ status: "suspended", suspendReason: "non_payment" })
      .where(eq(lines.id, alexPostpaid.id));
    expectProblem(await act(alexPostpaid.id, "restore", ALEX), 422, "suspendReason");
    expect((await getLine(alexPostpaid.id)).status).toBe("suspended");
    expectProblem(await act(alexPostpaid.id, "restore", AGENT, {}), 400, "reason");
    expect(await actOk(alexPostpaid.id, "restore", AGENT, { reason: "paid at the store" })).toMatchObject({
      status: "active",
    });
  });

  it("staff acting on a subscriber's line give a reason, kept in the trail; the subscriber is told by role, never by name", async () => {
    await resetLine(samLine.id);
    expectProblem(await act(samLine.id, "suspend", AGENT, { suspendReason: "stolen" }), 400, "reason");
    const answer = await actOk(samLine.id, "suspend", AGENT, {
      suspendReason: "stolen",
      reason: "Sam called: phone stolen on the bus",
    });
    expect(answer.status).toBe("suspended");
    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.suspend"), eq(auditEvents.targetId, samLine.id)));
    expect(audit).toMatchObject({ actorRole: "agent", reason: "Sam called: phone stolen on the bus" });
    const notice = (await noticesOf(UID.sam)).find((n) => n.kind === "line.suspended");
    expect(notice?.params).toMatchObject({ byRole: "agent" });
    expect(JSON.stringify(notice)).not.toMatch(/Casey|agent@att/);
    await resetLine(samLine.id);
  });

  it("of concurrent suspensions exactly one wins; the rest are 409 and place no order", async () => {
    await resetLine(alexPostpaid.id);
    const ordersBefore = await countRows(orders);
    const token = await signInWithPassword(ALEX);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => act(alexPostpaid.id, "suspend", ALEX, { suspendReason: "request" }, { token })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await countRows(orders)) - ordersBefore).toBe(1);
    await resetLine(alexPostpaid.id);
  });

  it("the preview says what will happen and changes nothing", async () => {
    await resetLine(alexPrepaid.id);
    const before = await snapshot();
    const res = await act(alexPrepaid.id, "suspend", ALEX, { suspendReason: "lost" }, { preview: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      summary: "resources.lines.preview.suspend",
      params: { msisdn: alexPrepaid.msisdn },
    });
    expect(await snapshot()).toEqual(before);
    expect((await getLine(alexPrepaid.id)).status).toBe("active");
    expectProblem(
      await act(alexPrepaid.id, "suspend", ALEX, { suspendReason: "nope" }, { preview: true }),
      400,
      "suspendReason",
    );
  });
});

describe("number lock, port-out PIN and PUK", () => {
  it("while the number is locked, port-out PINs and SIM swaps are refused with 409 naming the lock", async () => {
    await resetLine(alexPrepaid.id);
    const alexId = await upload(ALEX);
    expect(await actOk(alexPrepaid.id, "lock-number", ALEX)).toMatchObject({ numberLocked: true });
    const before = await snapshot();
    expectProblem(await act(alexPrepaid.id, "port-out-pin", ALEX), 409, "numberLocked");
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, { simType: "esim", idDocumentFileId: alexId }),
      409,
      "numberLocked",
    );
    expectProblem(await act(alexPrepaid.id, "lock-number", ALEX), 409, "numberLocked");
    expect(await snapshot()).toEqual(before);
  });

  it("unlocking asks the holder to sign in again", async () => {
    const token = await signInWithPassword(ALEX);
    const stale = await strict.inject({
      method: "POST",
      url: `${LINES}/${alexPrepaid.id}/actions/unlock-number`,
      headers: { authorization: `Bearer ${token}`, "x-operator": "ATT" },
    });
    expect(expectProblem(stale, 403).type).toBe(PROBLEM_TYPES.reauthRequired);
    expect((await getLine(alexPrepaid.id)).numberLocked).toBe(true);
    expect(await actOk(alexPrepaid.id, "unlock-number", ALEX)).toMatchObject({ numberLocked: false });
  });

  it("a port-out PIN: 6 digits shown once, valid 30 days, stored only as a hash; the line says until when", async () => {
    await resetLine(alexPrepaid.id);
    const answer = await actOk(alexPrepaid.id, "port-out-pin", ALEX);
    const pin = answer.result!.pin!;
    expect(pin).toMatch(/^\d{6}$/);
    const days = (Date.parse(answer.result!.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const [stored] = await backend.database.db
      .select({ hash: lines.portOutPinHash })
      .from(lines)
      .where(eq(lines.id, alexPrepaid.id));
    expect(stored!.hash).not.toContain(pin);
    expect(await verifySecret(pin, stored!.hash!)).toBe(true);
    const line = await getLine(alexPrepaid.id, ALEX);
    expect(line.portOutPinExpiresAt).toBe(answer.result!.expiresAt);
    expect(withoutUuids(line)).not.toContain(pin);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "lines.port-out-pin"));
    expect(JSON.stringify(audit)).not.toContain(`"${pin}"`);
    // Locking the number voids the PIN.
    await actOk(alexPrepaid.id, "lock-number", ALEX);
    expect((await getLine(alexPrepaid.id)).portOutPinExpiresAt).toBeNull();
    await resetLine(alexPrepaid.id);
  });

  it("the PUK, to the holder and to staff with a reason; each viewing audited, the PUK never in the trail", async () => {
    const mine = (await actOk(alexPrepaid.id, "reveal-puk", ALEX)).result!.puk!;
    expect(mine).toMatch(/^\d{8}$/);
    expectProblem(await act(alexPrepaid.id, "reveal-puk", AGENT, {}), 400, "reason");
    const agents = (
      await actOk(alexPrepaid.id, "reveal-puk", AGENT, { reason: "Alex locked his SIM, calling from the store" })
    ).result!.puk;
    expect(agents).toBe(mine);
    const audit = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "lines.reveal-puk"), eq(auditEvents.targetId, alexPrepaid.id)));
    expect(audit.map((a) => a.actorRole).sort()).toEqual(["agent", "subscriber"]);
    expect(JSON.stringify(audit)).not.toContain(mine);
    const [row] = await backend.database.db
      .select({ cipher: lines.pukCipher })
      .from(lines)
      .where(eq(lines.id, alexPrepaid.id));
    expect(row!.cipher).not.toContain(mine);
    expect(createSecretBox(LOCAL_SECRETS_KEY).open(row!.cipher!)).toBe(mine);
  });
});

describe("swap SIM", () => {
  it("400 naming iccid: a malformed one, none for a physical SIM, one given for an eSIM", async () => {
    const before = await snapshot();
    expectProblem(await act(alexPostpaid.id, "swap-sim", ALEX, { iccid: "12345" }), 400, "iccid");
    expectProblem(await act(alexPostpaid.id, "swap-sim", ALEX, {}), 400, "iccid");
    expectProblem(
      await act(alexPostpaid.id, "swap-sim", ALEX, { simType: "esim", iccid: "8901410000000077777" }),
      400,
      "iccid",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("409 when the ICCID is another line's SIM", async () => {
    expectProblem(await act(alexPostpaid.id, "swap-sim", ALEX, { iccid: samLine.iccid }), 409, "iccid");
    expect((await getLine(alexPostpaid.id)).iccid).toBe(alexPostpaid.iccid);
  });

  it("a new physical SIM by its number; then an eSIM with its activation code, shown once, and a new PUK", async () => {
    await resetLine(alexPostpaid.id);
    const pukBefore = (await actOk(alexPostpaid.id, "reveal-puk", ALEX)).result!.puk;
    const physical = await actOk(alexPostpaid.id, "swap-sim", ALEX, { iccid: "8901410000000077777" });
    expect(physical).toMatchObject({
      iccid: "8901410000000077777",
      simType: "physical",
      result: { iccid: "8901410000000077777", activationCode: null },
      order: { type: "sim_swap", state: "completed" },
    });
    // Care takes the holder's ID in the store and uploads it for him.
    const esim = await actOk(alexPostpaid.id, "swap-sim", AGENT, {
      simType: "esim",
      idDocumentFileId: await upload(AGENT),
      reason: "new phone, customer in store",
    });
    expect(esim.simType).toBe("esim");
    expect(esim.iccid).toMatch(/^8901410\d{12}$/);
    expect(esim.result!.activationCode).toMatch(/^LPA:1\$[\w.-]+\$[0-9A-F]{32}$/);
    expect(JSON.stringify(await getLine(alexPostpaid.id, ALEX))).not.toContain(esim.result!.activationCode!);
    expect((await actOk(alexPostpaid.id, "reveal-puk", ALEX)).result!.puk).not.toBe(pukBefore);
    expect(
      (await noticesOf(UID.alex))
        .filter((n) => n.kind === "line.sim_swapped")
        .map((n) => n.params.byRole)
        .sort(),
    ).toEqual(["agent", "subscriber"]);
  });
});

describe("an eSIM needs the holder's ID", () => {
  const ordersOf = (lineId: string) =>
    backend.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.lineId, lineId), eq(orders.type, "sim_swap")));
  const download = (fileId: string, as: string) => backend.get(`/api/v1/files/${fileId}/content`, { as });

  it("400 at idDocumentFileId without one (run and preview), and when one is given for a physical SIM: nothing changes", async () => {
    await resetLine(alexPrepaid.id);
    const alexId = await upload(ALEX);
    const before = await snapshot();
    const missing = expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, { simType: "esim" }),
      400,
      "idDocumentFileId",
    );
    expect(missing.errors!.find((e) => e.path === "idDocumentFileId")!.message).toMatch(
      /required for an eSIM: a photo or scan of your ID/,
    );
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, { simType: "esim" }, { preview: true }),
      400,
      "idDocumentFileId",
    );
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", AGENT, { simType: "esim", reason: "new phone, customer in store" }),
      400,
      "idDocumentFileId",
    );
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, { simType: "esim", idDocumentFileId: "not-a-uuid" }),
      400,
      "idDocumentFileId",
    );
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, { iccid: "8901410000000088888", idDocumentFileId: alexId }),
      400,
      "idDocumentFileId",
    );
    expect(await snapshot()).toEqual(before);
    expect((await getLine(alexPrepaid.id)).iccid).toBe(alexPrepaid.iccid);
  });

  it("422 at the field for another subscriber's ID, an attachment, a file that does not exist, or another staff member's upload (run and preview): nothing changes", async () => {
    await resetLine(alexPrepaid.id);
    const samsId = await upload(SAM);
    const alexAttachment = await upload(ALEX, "attachment");
    const adminsId = await upload(ADMIN);
    const before = await snapshot();
    const esim = (idDocumentFileId: string) => ({ simType: "esim", idDocumentFileId });
    expectProblem(await act(alexPrepaid.id, "swap-sim", ALEX, esim(samsId)), 422, "idDocumentFileId");
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, esim(samsId), { preview: true }),
      422,
      "idDocumentFileId",
    );
    expectProblem(await act(alexPrepaid.id, "swap-sim", ALEX, esim(alexAttachment)), 422, "idDocumentFileId");
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", ALEX, esim("00000000-0000-4000-8000-000000000000")),
      422,
      "idDocumentFileId",
    );
    // Staff act with the holder's ID or one they uploaded themselves, never another subscriber's or colleague's.
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", AGENT, { ...esim(samsId), reason: "new phone, customer in store" }),
      422,
      "idDocumentFileId",
    );
    expectProblem(
      await act(alexPrepaid.id, "swap-sim", AGENT, { ...esim(adminsId), reason: "new phone, customer in store" }),
      422,
      "idDocumentFileId",
    );
    expect(await snapshot()).toEqual(before);
    expect((await getLine(alexPrepaid.id)).iccid).toBe(alexPrepaid.iccid);
  });

  it("with the holder's ID: 200, the order keeps it; the holder and staff can download it, another subscriber cannot", async () => {
    await resetLine(alexPrepaid.id);
    const alexId = await upload(ALEX);
    const preview = await act(
      alexPrepaid.id,
      "swap-sim",
      ALEX,
      { simType: "esim", idDocumentFileId: alexId },
      { preview: true },
    );
    expect(preview.statusCode, preview.body).toBe(200);
    const moved = await actOk(alexPrepaid.id, "swap-sim", ALEX, { simType: "esim", idDocumentFileId: alexId });
    expect(moved).toMatchObject({ simType: "esim", order: { type: "sim_swap", state: "completed" } });
    const order = (await backend.get(`/api/v1/orders/${moved.order!.id}`, { as: AGENT })).json<Order>();
    expect(order.details).toMatchObject({ simType: "esim", idDocumentFileId: alexId });
    // The order names it on its own (the order page offers it for download).
    expect(order.idDocumentFileId).toBe(alexId);
    expect((await backend.get(`/api/v1/orders/${moved.order!.id}`, { as: ALEX })).json<Order>().idDocumentFileId).toBe(
      alexId,
    );
    expect((await download(alexId, ALEX)).statusCode).toBe(200);
    expect((await download(alexId, AGENT)).statusCode).toBe(200);
    expect((await download(alexId, ADMIN)).statusCode).toBe(200);
    expectProblem(await download(alexId, SAM), 404);
  });

  it("care uploads the ID for the holder: the order keeps it and the holder can download it too, another subscriber cannot", async () => {
    await resetLine(alexPrepaid.id);
    const agentsUpload = await upload(AGENT);
    expectProblem(await download(agentsUpload, ALEX), 404);
    const moved = await actOk(alexPrepaid.id, "swap-sim", AGENT, {
      simType: "esim",
      idDocumentFileId: agentsUpload,
      reason: "new phone, ID seen in store",
    });
    const [order] = (await ordersOf(alexPrepaid.id)).filter((o) => o.id === moved.order!.id);
    expect(order!.details).toMatchObject({ idDocumentFileId: agentsUpload });
    expect((await download(agentsUpload, ALEX)).statusCode).toBe(200);
    expect((await download(agentsUpload, ADMIN)).statusCode).toBe(200);
    expectProblem(await download(agentsUpload, SAM), 404);
  });
});

describe("a SIM by post", () => {
  const HOME = { line1: "1600 Pennsylvania Ave NW", line2: "Apt 2", city: "Washington", state: "DC", zip: "20500" };
  const deliveryOrders = () =>
    backend.database.db
      .select()
      .from(orders)
      .where(and(eq(orders.lineId, samLine.id), eq(orders.type, "sim_swap")));

  it("refused without a token, on another subscriber's or operator's line, for an eSIM line, and with a bad address named at its field: nothing changes", async () => {
    await resetLine(samLine.id);
    const before = await snapshot();
    expectProblem(
      await backend.send("POST", `${LINES}/${samLine.id}/actions/order-sim`, { body: { address: HOME } }),
      401,
    );
    expectProblem(await act(samLine.id, "order-sim", ALEX, { address: HOME }), 404);
    expectProblem(await act(tmoLineId, "order-sim", SAM, { address: HOME }), 404);
    expectProblem(await act(samLine.id, "order-sim", TAYLOR, { address: HOME }, { operator: "TMO" }), 404);
    expectProblem(await act(samLine.id, "order-sim", SAM, { address: { ...HOME, zip: "2050" } }), 400, "address.zip");
    expectProblem(await act(samLine.id, "order-sim", SAM, { address: { ...HOME, state: "ZZ" } }), 400, "address.state");
    expectProblem(await act(samLine.id, "order-sim", SAM, { address: { ...HOME, line1: "  " } }), 400, "address.line1");
    expectProblem(await act(samLine.id, "order-sim", SAM, {}), 400, "address");
    expectProblem(await act(samLine.id, "order-sim", AGENT, { address: HOME }), 400, "reason");
    // Alex's prepaid line runs on an eSIM: nothing to post.
    expectProblem(await act(alexPrepaid.id, "order-sim", ALEX, { address: HOME }), 409, "simType");
    expect(await snapshot()).toEqual(before);
  });

  it("the preview names the address and changes nothing", async () => {
    const before = await snapshot();
    const res = await act(samLine.id, "order-sim", SAM, { address: HOME }, { preview: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      summary: "resources.lines.preview.orderSim",
      params: { address: "1600 Pennsylvania Ave NW, Apt 2, Washington, DC 20500" },
    });
    expect(await snapshot()).toEqual(before);
  });

  it("sam orders one: an order waits with the address, he is told, a second is refused while it is on its way, and activating the SIM completes it", async () => {
    const ordered = await actOk(samLine.id, "order-sim", SAM, { address: { ...HOME, line2: "" } });
    expect(ordered.order).toMatchObject({ type: "sim_swap", state: "acknowledged" });
    expect(ordered.iccid).toBe(samLine.iccid); // the line keeps its SIM until the new one is in
    const [order] = (await deliveryOrders()).filter((o) => o.id === ordered.order!.id);
    expect(order!.details).toEqual({ simType: "physical", delivery: { ...HOME, line2: null } });
    const notice = (await noticesOf(UID.sam)).find((n) => n.kind === "line.sim_ordered");
    expect(notice?.params).toMatchObject({
      address: "1600 Pennsylvania Ave NW, Washington, DC 20500",
      byRole: "subscriber",
    });

    const again = await snapshot();
    expectProblem(
      await act(samLine.id, "order-sim", AGENT, { address: HOME, reason: "customer called, never arrived" }),
      409,
      "address",
    );
    expect(await snapshot()).toEqual(again);

    await actOk(samLine.id, "swap-sim", SAM, { iccid: "8901410000000088888" });
    const [done] = (await deliveryOrders()).filter((o) => o.id === ordered.order!.id);
    expect(done!.state).toBe("completed");
    expect(done!.timeline.map((step) => step.state)).toEqual(["acknowledged", "in_progress", "completed"]);
    expect(done!.timeline.at(-1)!.note).toBe("activated as the SIM ending 8888");
    // With that one in, another can be ordered again (by an agent, with a reason).
    const byAgent = await actOk(samLine.id, "order-sim", AGENT, {
      address: HOME,
      reason: "customer called, SIM damaged",
    });
    expect(byAgent.order!.state).toBe("acknowledged");
    const [agentOrder] = (await deliveryOrders()).filter((o) => o.id === byAgent.order!.id);
    expect(agentOrder!.reason).toBe("customer called, SIM damaged");
  });
});

describe("orders", () => {
  it("subscribers list their own orders, staff all; nobody sees another operator's", async () => {
    const mine = (await backend.get("/api/v1/orders?pageSize=100", { as: ALEX })).json<{
      data: Order[];
      total: number;
    }>();
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.data.every((o) => [alexPrepaid.id, alexPostpaid.id].includes(o.lineId!))).toBe(true);
    const sams = (await backend.get("/api/v1/orders?pageSize=100", { as: SAM })).json<{ data: Order[] }>();
    expect(sams.data.some((o) => o.lineId === alexPrepaid.id)).toBe(false);
    const all = (
      await backend.get("/api/v1/orders?pageSize=100&filter[lineId]=" + alexPrepaid.id, { as: AGENT })
    ).json<{ total: number }>();
    expect(all.total).toBeGreaterThan(0);
    const tmo = (await backend.get("/api/v1/orders?pageSize=100", { as: TAYLOR, operator: "TMO" })).json<{
      total: number;
    }>();
    expect(tmo.total).toBe(0);
    expectProblem(await backend.get(`/api/v1/orders/${mine.data[0]!.id}`, { as: SAM }), 404);
  });

  it("filters by time on a timestamp column, given as ISO text", async () => {
    const now = new Date().toISOString();
    const before = (
      await backend.get(`/api/v1/orders?filter[createdAt][lte]=${encodeURIComponent(now)}&pageSize=100`, { as: ALEX })
    ).json<{ total: number }>();
    const after = (
      await backend.get(`/api/v1/orders?filter[createdAt][gte]=${encodeURIComponent(now)}&pageSize=100`, { as: ALEX })
    ).json<{ total: number }>();
    const all = (await backend.get("/api/v1/orders?pageSize=100", { as: ALEX })).json<{ total: number }>();
    expect(before.total).toBeGreaterThan(0);
    expect(before.total + after.total).toBe(all.total);
    const between = await backend.get(
      `/api/v1/audit-events?filter[createdAt][between]=2000-01-01T00:00:00Z,${encodeURIComponent(now)}`,
      { as: ADMIN },
    );
    expect(between.statusCode, between.body).toBe(200);
  });

  it("an order still acknowledged can be cancelled by its holder, once; one carried out cannot", async () => {
    const [waiting] = await backend.database.db
      .insert(orders)
      .values({
        operatorCode: "ATT",
        accountId: alexPrepaid.accountId,
        lineId: alexPrepaid.id,
        type: "change_plan",
        effective: "next_cycle",
        scheduledFor: new Date(Date.now() + 86_400_000),
        timeline: [{ state: "acknowledged", at: new Date().toISOString(), byRole: "subscriber", note: null }],
        requestedBy: UID.alex,
        requestedByRole: "subscriber",
      })
      .returning();
    expectProblem(
      await backend.send("POST", `/api/v1/orders/${waiting!.id}/actions/cancel`, { as: SAM, body: {} }),
      404,
    );
    const res = await backend.send("POST", `/api/v1/orders/${waiting!.id}/actions/cancel`, { as: ALEX, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Order>().timeline.map((s) => s.state)).toEqual(["acknowledged", "cancelled"]);
    expectProblem(
      await backend.send("POST", `/api/v1/orders/${waiting!.id}/actions/cancel`, { as: ALEX, body: {} }),
      409,
      "state",
    );
    const done = (await backend.get("/api/v1/orders?filter[state]=completed&pageSize=1", { as: ALEX })).json<{
      data: Order[];
    }>().data[0]!;
    expectProblem(
      await backend.send("POST", `/api/v1/orders/${done.id}/actions/cancel`, { as: ALEX, body: {} }),
      409,
      "state",
    );
  });
});

describe("notifications", () => {
  it("an inbox of one's own: unread first counted, marked read once, nobody else's", async () => {
    const unread = (await backend.get("/api/v1/notifications?filter[read]=false&pageSize=100", { as: ALEX })).json<{
      data: Notification[];
      total: number;
    }>();
    expect(unread.total).toBeGreaterThan(0);
    const first = unread.data[0]!;
    expect(first.read).toBe(false);
    expectProblem(await backend.get(`/api/v1/notifications/${first.id}`, { as: SAM }), 404);
    expectProblem(
      await backend.send("POST", `/api/v1/notifications/${first.id}/actions/mark-read`, { as: SAM, body: {} }),
      404,
    );
    expectProblem(await backend.get(`/api/v1/notifications/${first.id}`, { as: AGENT }), 404);
    const read = await backend.send("POST", `/api/v1/notifications/${first.id}/actions/mark-read`, {
      as: ALEX,
      body: {},
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Notification>().read).toBe(true);
    expectProblem(
      await backend.send("POST", `/api/v1/notifications/${first.id}/actions/mark-read`, { as: ALEX, body: {} }),
      409,
      "read",
    );
    const after = (await backend.get("/api/v1/notifications?filter[read]=false&pageSize=1", { as: ALEX })).json<{
      total: number;
    }>();
    expect(after.total).toBe(unread.total - 1);
  });
});

describe("the OpenAPI document", () => {
  it("describes every action and preview with an operation id, its body and the problems it answers", async () => {
    const doc = (await backend.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
    }>();
    for (const action of [
      "suspend",
      "restore",
      "lock-number",
      "unlock-number",
      "port-out-pin",
      "reveal-puk",
      "swap-sim",
    ]) {
      const op = doc.paths[`/api/v1/lines/{id}/actions/${action}`]?.post;
      expect(op?.operationId, action).toBeTruthy();
      expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404", "409"]));
    }
    expect(doc.paths["/api/v1/lines/{id}/actions/suspend/preview"]?.post?.operationId).toBe("previewSuspendLines");
    expect(doc.paths["/api/v1/orders/{id}/actions/cancel"]?.post).toBeDefined();
  });
});
