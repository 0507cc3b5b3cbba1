import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, numberInventory } from "../../server/db/schema";
import { quarantineNumber } from "../../server/domain/numberInventory/inventory";
import type { AvailableNumber, NumberReservation } from "../../src/resources/numberInventory";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// The operator's number inventory (issue 28 item 1): free numbers by area code, a 15-minute hold for
// the person who picks one, 90 days of quarantine for a released number; never another operator's.
const INVENTORY = "/api/v1/number-inventory";

let backend: TestBackend;

const free = async (areaCode: string, as = ALEX, operator?: string) => {
  const res = await backend.get(`${INVENTORY}?areaCode=${areaCode}`, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: AvailableNumber[]; total: number }>().data.map((n) => n.msisdn);
};
const reserve = (msisdn: string, as: string, operator?: string) =>
  backend.send("POST", `${INVENTORY}/${encodeURIComponent(msisdn)}/actions/reserve`, { as, operator });
const rowOf = async (msisdn: string) =>
  (
    await backend.database.db
      .select()
      .from(numberInventory)
      .where(and(eq(numberInventory.operatorCode, "ATT"), eq(numberInventory.msisdn, msisdn)))
  )[0]!;

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  await backend?.close();
});

describe("free numbers by area code", () => {
  it("subscribers, agents and admins of the operator see the free numbers of the demo's area code", async () => {
    for (const as of [ALEX, AGENT, ADMIN]) {
      const numbers = await free("202", as);
      expect(numbers.length).toBeGreaterThan(0);
      expect(numbers.every((n) => n.startsWith("+1202"))).toBe(true);
    }
    // The demo's own lines are not offered.
    expect(await free("202")).not.toContain("+12025550101");
    expect((await free("301")).length).toBeGreaterThan(0);
  });

  it("401 without a token; 400 at areaCode for a malformed or missing one; 409 saying so when none is free", async () => {
    expectProblem(await backend.get(`${INVENTORY}?areaCode=202`), 401);
    for (const bad of ["2x2", "123", "2020", ""])
      expectProblem(await backend.get(`${INVENTORY}?areaCode=${bad}`, { as: ALEX }), 400, "areaCode");
    expectProblem(await backend.get(INVENTORY, { as: ALEX }), 400, "areaCode");
    const none = expectProblem(await backend.get(`${INVENTORY}?areaCode=303`, { as: ALEX }), 409, "areaCode");
    expect(none.detail).toMatch(/no free numbers in area code 303/);
  });

  it("never another operator's numbers: each operator sees only its own", async () => {
    expect(await free("310", TAYLOR, "TMO")).toContain("+13105551000");
    expectProblem(await backend.get(`${INVENTORY}?areaCode=202`, { as: TAYLOR, operator: "TMO" }), 409, "areaCode");
    expectProblem(await backend.get(`${INVENTORY}?areaCode=310`, { as: ALEX }), 409, "areaCode");
    // A user of one operator asking as another is refused before anything is read.
    expect((await backend.get(`${INVENTORY}?areaCode=202`, { as: TAYLOR })).statusCode).toBe(403);
  });
});

describe("reserving a number", () => {
  it("holds a number for 15 minutes for the picker: others get 409 and no longer see it; the picker may hold it again", async () => {
    const [msisdn] = await free("202");
    const res = await reserve(msisdn!, ALEX);
    expect(res.statusCode, res.body).toBe(200);
    const held = res.json<NumberReservation>();
    expect(held).toMatchObject({ msisdn, areaCode: "202" });
    const minutes = (Date.parse(held.reservedUntil) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);

    expect(await free("202", SAM)).not.toContain(msisdn);
    // The picker's own list still offers it (a dialog opened again shows the number they hold).
    expect(await free("202", ALEX)).toContain(msisdn);
    const taken = expectProblem(await reserve(msisdn!, SAM), 409, "msisdn");
    expect(taken.detail).toMatch(/holding that number/);
    expect((await reserve(msisdn!, ALEX)).statusCode).toBe(200);
    expect(await rowOf(msisdn!)).toMatchObject({ status: "reserved", reservedBy: "demo-alex" });

    const [audit] = await backend.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "numberInventory.reserve"), eq(auditEvents.targetId, msisdn!)));
    expect(audit).toMatchObject({ actorUid: "demo-alex", actorRole: "subscriber" });

    // Fifteen minutes later (moved into the past, no sleeping) anyone may take it.
    await backend.database.db
      .update(numberInventory)
      .set({ reservedUntil: new Date(Date.now() - 1000) })
      .where(eq(numberInventory.msisdn, msisdn!));
    expect(await free("202", SAM)).toContain(msisdn);
    expect((await reserve(msisdn!, SAM)).statusCode).toBe(200);
  });

  it("a released number rests 90 days in quarantine (409), then comes back", async () => {
    const [msisdn] = await free("301");
    const until = await quarantineNumber(backend.database.db, "ATT", msisdn!);
    expect(Math.round((until.getTime() - Date.now()) / 86_400_000)).toBe(90);
    expect(await free("301")).not.toContain(msisdn);
    const resting = expectProblem(await reserve(msisdn!, ALEX), 409, "msisdn");
    expect(resting.detail).toMatch(/90 days/);
    await backend.database.db
      .update(numberInventory)
      .set({ quarantinedUntil: new Date(Date.now() - 1000) })
      .where(eq(numberInventory.msisdn, msisdn!));
    expect(await free("301")).toContain(msisdn);
  });

  it("401 without a token, 400 at msisdn for a malformed number, 409 for a number not ours (another operator's, unknown)", async () => {
    expectProblem(await backend.send("POST", `${INVENTORY}/%2B12025551001/actions/reserve`), 401);
    expectProblem(await reserve("12345", ALEX), 400, "msisdn");
    expectProblem(await reserve("+12025559999", ALEX), 409, "msisdn");
    expectProblem(await reserve("+13105551000", ALEX), 409, "msisdn");
    expect(await rowOf("+12025559999")).toBeUndefined();
    // TMO's number stays free for TMO.
    expect((await reserve("+13105551000", TAYLOR, "TMO")).statusCode).toBe(200);
  });
});
