import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Executor } from "../../server/audit";
import { callerVerifications } from "../../server/db/schema";
import { ADMIN } from "./fixtures";
import type { TestInstance } from "./testBackend";

/**
 * Lets a staff member read and act on a subscriber's records (issue 27: an agent verifies the caller
 * first): the operator's admin grants it through the API's override, as the back office would.
 * `accountId` is any account of the subscriber; `agentUid` defaults to the demo agent.
 */
export async function verifyCallerByOverride(
  backend: TestInstance,
  accountId: string,
  agentUid = "demo-agent",
  options: { admin?: string; operator?: string } = {},
): Promise<void> {
  const res = await backend.send("POST", `/api/v1/subscribers/${accountId}/actions/verify-caller`, {
    as: options.admin ?? ADMIN,
    operator: options.operator,
    body: { method: "override", agentUid, reason: "Test: the caller was verified in person" },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Moves a verification's end into the past, as 30 minutes passing would (no sleeping). */
export async function expireVerification(db: Executor, agentUid: string, subscriberUid: string): Promise<void> {
  await db
    .update(callerVerifications)
    .set({ verifiedUntil: new Date(Date.now() - 1000) })
    .where(and(eq(callerVerifications.agentUid, agentUid), eq(callerVerifications.subscriberUid, subscriberUid)));
}
