import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, usageRecords } from "../../server/db/schema";
import { seedUsage } from "../../server/db/seed/seedUsage";
import { attSeed } from "../../server/db/seed/demoData";
import type { Home } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX } from "../support/fixtures";

// The demo's month of usage (issue 10): every line gets some, a second start adds nothing, and alex's
// meters sit below the 80 % alert so the demo can show it happen.
let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  await backend?.close();
});

describe("seedUsage", () => {
  it("seeds a month of usage for every active line, idempotently, below alex's alert threshold", async () => {
    const now = new Date();
    const first = await seedUsage(backend.database.db, attSeed, now);
    expect(first.counted).toBeGreaterThan(1000);
    expect((await seedUsage(backend.database.db, attSeed, now)).counted).toBe(0);

    const [alexLine] = await backend.database.db
      .select({ id: lines.id })
      .from(lines)
      .where(eq(lines.msisdn, "+12025550101"));
    const records = await backend.database.db.select().from(usageRecords).where(eq(usageRecords.lineId, alexLine!.id));
    expect(new Set(records.map((r) => r.startedAt.toISOString().slice(0, 10))).size).toBeGreaterThanOrEqual(29);
    expect(records.every((r) => r.startedAt.getTime() <= now.getTime())).toBe(true);

    const home = (await backend.get("/api/v1/home", { as: ALEX })).json<Home>();
    for (const line of home.lines) {
      const data = line.meters.find((m) => m.type === "data")!;
      expect(data.used).toBeGreaterThan(0);
      expect(data.used).toBeLessThan(data.allowance! * 0.8);
      expect(data.asOf).not.toBeNull();
    }
    // Tomorrow's start adds tomorrow's records only.
    const tomorrow = await seedUsage(backend.database.db, attSeed, new Date(now.getTime() + 86_400_000));
    expect(tomorrow.counted).toBeGreaterThan(0);
    expect(tomorrow.counted).toBeLessThan(first.counted / 10);
  });

  it("invents no traffic on a line the seed did not make (a restart must not count made-up calls on it)", async () => {
    const [alexLine] = await backend.database.db.select().from(lines).where(eq(lines.msisdn, "+12025550101"));
    const [newLine] = await backend.database.db
      .insert(lines)
      .values({
        operatorCode: "ATT",
        accountId: alexLine!.accountId,
        msisdn: "+12025559876",
        iccid: "8901410000000987654",
        simType: "esim",
        planId: alexLine!.planId,
        status: "active",
        cycleDay: alexLine!.cycleDay,
        pukCipher: alexLine!.pukCipher,
      })
      .returning({ id: lines.id });
    await seedUsage(backend.database.db, attSeed, new Date(Date.now() + 2 * 86_400_000));
    const records = await backend.database.db.select().from(usageRecords).where(eq(usageRecords.lineId, newLine!.id));
    expect(records).toEqual([]);
  });
});
