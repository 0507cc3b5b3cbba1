import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/resources/api";
import { auditEvents, carePins } from "../../server/db/schema";
import { checkCarePin } from "../../server/domain/carePins/carePins";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";
import { expectProblem } from "../support/problems";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { withoutUuids } from "../support/withoutUuids";

// The care PIN (issue 27 item 1): a subscriber sets and changes their own under Security with a
// recent sign-in; 4 to 8 digits, not guessable; stored as a salted hash; audited without the PIN;
// staff can neither read nor set it. On TEST_DB (both databases).
const URL = "/api/v1/me/care-pin";
const logs: string[] = [];
let backend: TestBackend;
/** The same database behind an instance that finds every sign-in too old (reauthMaxAgeSeconds -1). */
let strict: TestInstance;

beforeAll(async () => {
  backend = await startTestBackend({ logLevel: "info", logStream: { write: (line: string) => void logs.push(line) } });
  strict = await backend.startAnotherInstance({ reauthMaxAgeSeconds: -1 });
});
afterAll(async () => {
  await backend?.close();
});

const db = () => backend.database.db;
const pinRows = (uid: string) => db().select().from(carePins).where(eq(carePins.uid, uid));
const pinAudit = (uid: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.actorUid, uid), eq(auditEvents.targetType, "user")))
    .then((rows) => rows.filter((r) => r.action.startsWith("care-pin.")));
const put = (as: string, body: unknown, headers?: Record<string, string>, on: TestInstance = backend) =>
  on.send("PUT", URL, { as, body, ...(headers && { headers }) });

describe("who may use /me/care-pin", () => {
  it("401 without a token", async () => {
    expectProblem(await backend.send("GET", URL), 401);
    expectProblem(await backend.send("PUT", URL, { body: { pin: "2580" } }), 401);
  });

  it("403 for staff: it is the subscriber's own PIN, even with a body that is not valid", async () => {
    for (const as of [AGENT, ADMIN]) {
      expectProblem(await backend.get(URL, { as }), 403);
      expectProblem(await put(as, { pin: "2580" }), 403);
      expectProblem(await put(as, { pin: "12" }), 403);
    }
    expect(await db().select().from(carePins)).toEqual([]);
  });
});

describe("PUT /me/care-pin", () => {
  it("refuses a PIN that is malformed or guessable: 400 at `pin`, nothing stored or audited", async () => {
    const bodies: unknown[] = [
      {},
      { pin: null },
      { pin: 2580 },
      { pin: "abcd" },
      { pin: "12a4" },
      { pin: " 2580" },
      { pin: "٢٥٨٠" }, // digits, but not the keypad's
      { pin: "123" },
      { pin: "258025802" },
      { pin: "1111" },
      { pin: "00000000" },
      { pin: "1234" },
      { pin: "4321" },
      { pin: "7890" },
      { pin: "345678" },
    ];
    for (const body of bodies) {
      const problem = expectProblem(await put(SAM, body), 400, "pin");
      expect(problem.errors, JSON.stringify(body)).toHaveLength(1);
    }
    // The refusal names the rule it broke.
    const short = expectProblem(await put(SAM, { pin: "123" }), 400, "pin");
    expect(short.errors).toEqual([{ path: "pin", message: "4 to 8 digits" }]);
    const run = expectProblem(await put(SAM, { pin: "1234" }), 400, "pin");
    expect(run.errors).toEqual([
      { path: "pin", message: "too easy to guess: not the same digit repeated or a run like 1234" },
    ]);
    expectProblem(await put(SAM, { pin: "2580", extra: true }), 400);
    expect(await pinRows("demo-sam")).toEqual([]);
    expect(await pinAudit("demo-sam")).toEqual([]);
    expect((await backend.get(URL, { as: SAM })).json()).toEqual({ set: false, updatedAt: null });
  });

  it("asks for a recent sign-in (the reauth problem) and stores nothing until then", async () => {
    const stale = expectProblem(await put(SAM, { pin: "2580" }, undefined, strict), 403);
    expect(stale.type).toBe(PROBLEM_TYPES.reauthRequired);
    expect(stale.errors).toEqual([{ path: "authorization", message: "sign-in too old for this action" }]);
    expect(await pinRows("demo-sam")).toEqual([]);
    // Reading whether one is set needs no fresh sign-in.
    expect((await strict.get(URL, { as: SAM })).statusCode).toBe(200);
  });

  it("sets a PIN: stored as a salted hash, GET says set, audited without the PIN; a change replaces it", async () => {
    expect((await backend.get(URL, { as: ALEX })).json()).toEqual({ set: false, updatedAt: null });
    const first = await put(ALEX, { pin: "2580" });
    expect(first.statusCode, first.body).toBe(200);
    const set = first.json<{ set: boolean; updatedAt: string }>();
    expect(set).toEqual({ set: true, updatedAt: expect.any(String) as string });
    expect(first.body).not.toContain("2580");
    expect((await backend.get(URL, { as: ALEX })).json()).toEqual(set);

    const [row] = await pinRows("demo-alex");
    expect(row!.operatorCode).toBe("ATT");
    expect(row!.pinHash).toMatch(/^scrypt\./);
    expect(row!.pinHash).not.toContain("2580");
    expect(await checkCarePin(db(), "ATT", "demo-alex", "2580")).toBe("match");
    expect(await checkCarePin(db(), "ATT", "demo-alex", "2581")).toBe("mismatch");
    expect(await checkCarePin(db(), "ATT", "demo-sam", "2580")).toBe("not-set");
    expect(await checkCarePin(db(), "TMO", "demo-alex", "2580")).toBe("not-set");

    const second = await put(ALEX, { pin: "739164" });
    expect(second.statusCode, second.body).toBe(200);
    const changed = second.json<{ updatedAt: string }>();
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(set.updatedAt));
    const [after] = await pinRows("demo-alex");
    expect(after!.pinHash).not.toBe(row!.pinHash);
    expect(await checkCarePin(db(), "ATT", "demo-alex", "739164")).toBe("match");
    expect(await checkCarePin(db(), "ATT", "demo-alex", "2580")).toBe("mismatch");

    // The same PIN twice gets two different hashes (a salt per PIN).
    await put(ALEX, { pin: "739164" });
    const [again] = await pinRows("demo-alex");
    expect(again!.pinHash).not.toBe(after!.pinHash);

    const audit = await pinAudit("demo-alex");
    expect(audit.map((a) => [a.action, a.before, a.after, a.targetId, a.actorRole])).toEqual([
      ["care-pin.set", { set: false }, { set: true }, "demo-alex", "subscriber"],
      ["care-pin.change", { set: true }, { set: true }, "demo-alex", "subscriber"],
      ["care-pin.change", { set: true }, { set: true }, "demo-alex", "subscriber"],
    ]);
    // Ids blanked: a random request id holds "2580" about once in 2,300 (it did once, in CI).
    const written = withoutUuids(audit);
    for (const secret of ["2580", "739164", "scrypt."]) expect(written).not.toContain(secret);

    // Only the caller's own: another subscriber, and another operator's, have none.
    expect((await backend.get(URL, { as: SAM })).json()).toMatchObject({ set: false });
    expect((await backend.get(URL, { as: TAYLOR, operator: "TMO" })).json()).toMatchObject({ set: false });
  });

  it("never writes a PIN to the log, taken or refused", () => {
    const joined = logs.join("\n");
    expect(joined).toContain("/me/care-pin");
    // As text, not as the digits of a number the log carries anyway (a response time, a length).
    for (const pin of ["2580", "739164", "258025802"])
      expect(joined).not.toMatch(new RegExp(`(?<![\\d.:])${pin}(?!\\d)`));
  });
});

describe("answers in the request's language", () => {
  const es = { "accept-language": "es" };

  it("a refused PIN, staff and a stale sign-in, in Spanish for es and English otherwise", async () => {
    const short = expectProblem(await put(SAM, { pin: "12" }, es), 400, "pin");
    expect(short.title).toBe("Solicitud no válida");
    expect(short.errors).toEqual([{ path: "pin", message: "de 4 a 8 dígitos" }]);
    const guessable = expectProblem(await put(SAM, { pin: "9999" }, es), 400, "pin");
    expect(guessable.errors).toEqual([
      {
        path: "pin",
        message: "demasiado fácil de adivinar: no repitas el mismo dígito ni uses una serie como 1234",
      },
    ]);

    const staff = expectProblem(await backend.send("GET", URL, { as: AGENT, headers: es }), 403);
    expect(staff.detail).toBe("Solo el titular de la cuenta puede ver o cambiar su PIN de atención.");
    const staffEn = expectProblem(await backend.get(URL, { as: AGENT }), 403);
    expect(staffEn.detail).toBe("Only the account holder can see or change their care PIN.");

    const stale = expectProblem(await put(SAM, { pin: "2580" }, es, strict), 403);
    expect(stale.type).toBe(PROBLEM_TYPES.reauthRequired);
    expect(stale.detail).toBe(
      "Confirma que eres tú: para configurar tu PIN de atención necesitas haber iniciado sesión en los últimos 1 minutos.",
    );
    expect(stale.errors).toEqual([
      { path: "authorization", message: "el inicio de sesión es demasiado antiguo para esta acción" },
    ]);
    const staleEn = expectProblem(await put(SAM, { pin: "2580" }, undefined, strict), 403);
    expect(staleEn.detail).toBe("Confirm it is you: setting your care PIN needs a sign-in from the last 1 minutes.");
  });
});
