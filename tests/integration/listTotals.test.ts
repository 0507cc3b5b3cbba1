import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, TMO_ADMIN } from "../support/fixtures";

// Issue 30: a list counts its matches exactly up to 10,000 and, past that, answers the planner's
// estimate marked `totalIsEstimate` (a million rows are not counted on every page).
let backend: TestBackend;

/** Audit events of one kind (`targetType`), made in SQL: ten thousand through the API would test the API. */
async function auditEvents(operator: string, targetType: string, count: number) {
  await backend.database.db.execute(sql`
    insert into audit_events (operator_code, actor_uid, actor_role, action, target_type, target_id)
    select ${operator}, 'bulk-import', 'admin', 'lines.edit', ${targetType}, n::text from generate_series(1, ${count}) n`);
}

type Listed = { data: { id: string; targetType: string }[]; total: number; totalIsEstimate?: boolean };
const listOf = async (query: string, as = ADMIN, operator?: string) => {
  const res = await backend.get(`/api/v1/audit-events?${query}`, { as, ...(operator ? { operator } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Listed>();
};

beforeAll(async () => {
  backend = await startTestBackend();
  await auditEvents("ATT", "bound", 10_000);
  await auditEvents("ATT", "past-bound", 30_000);
  await auditEvents("TMO", "past-bound", 5);
  // The planner's figures come from the statistics, as they would after autovacuum on a live database.
  await backend.database.db.execute(sql`analyze audit_events`);
}, 120_000);
afterAll(() => backend?.close());

describe("a list's total", () => {
  it("is exact up to 10,000 matches, with no estimate mark", async () => {
    const bound = await listOf("filter[targetType]=bound&pageSize=5");
    expect(bound.total).toBe(10_000);
    expect(bound).not.toHaveProperty("totalIsEstimate");
    expect(bound.data).toHaveLength(5);
    // Another operator's rows of the same kind are neither counted nor listed.
    const theirs = await listOf("filter[targetType]=past-bound", TMO_ADMIN, "TMO");
    expect(theirs.total).toBe(5);
  });

  it("past 10,000 is the planner's estimate, marked as one, and the page is still exact", async () => {
    const past = await listOf("filter[targetType]=past-bound&pageSize=20&sort=-createdAt");
    expect(past.totalIsEstimate).toBe(true);
    // Never below the bound it passed, and near the truth (30,000) once the statistics know the table.
    expect(past.total).toBeGreaterThan(10_000);
    expect(past.total).toBeGreaterThan(30_000 * 0.5);
    expect(past.total).toBeLessThan(30_000 * 2);
    expect(past.data).toHaveLength(20);
    expect(past.data.every((e) => e.targetType === "past-bound")).toBe(true);
  });

  it("past 10,000 without a filter too (every event of the operator)", async () => {
    const all = await listOf("pageSize=1");
    expect(all.totalIsEstimate).toBe(true);
    expect(all.total).toBeGreaterThan(40_000 * 0.5);
  });

  it("a bad filter is still refused at its parameter, before anything is counted", async () => {
    const res = await backend.get("/api/v1/audit-events?filter[targetType][gt]=x", { as: ADMIN });
    expect(res.statusCode).toBe(400);
  });
});
