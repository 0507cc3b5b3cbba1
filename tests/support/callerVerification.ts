import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Executor } from "../../server/audit";
import { accounts, callerVerifications } from "../../server/db/schema";
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

/**
 * The demo agent verified as the caller for each of these people (the seeded subscribers unless
 * given), through one account each: what suites that exercise the care desk's reads do first.
 */
export async function verifyDemoCallers(
  backend: TestInstance & { database: { db: Executor } },
  ownerUids: readonly string[] = ["demo-alex", "demo-sam"],
  agentUid = "demo-agent",
  options: { admin?: string; operator?: string } = {},
): Promise<void> {
  for (const ownerUid of ownerUids) {
    const [account] = await backend.database.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.ownerUid, ownerUid))
      .limit(1);
    expect(account, ownerUid).toBeDefined();
    await verifyCallerByOverride(backend, account!.id, agentUid, options);
  }
}

/**
 * The same over HTTP, for a backend of the e2e run: the operator's admin finds the subscriber by the
 * care search (`q`: a number, a name) and grants the agent a verification of that caller.
 */
export async function verifyCallerOverHttp(
  baseUrl: string,
  q: string,
  agentUid = "demo-agent",
  reason = "e2e: the caller was verified in person",
): Promise<void> {
  // (`q` may also be the id of one of the subscriber's accounts.)
  const { signInWithPassword } = await import("./testBackend");
  const headers = {
    authorization: `Bearer ${await signInWithPassword(ADMIN)}`,
    "x-operator": "ATT",
    "content-type": "application/json",
  };
  // An account id is the subscriber already; anything else is what the care search finds first.
  const found = /^[0-9a-f-]{36}$/i.test(q)
    ? { data: [{ id: q }] }
    : ((await (await fetch(`${baseUrl}/api/v1/subscribers?q=${encodeURIComponent(q)}`, { headers })).json()) as {
        data: { id: string }[];
      });
  expect(found.data.length, q).toBeGreaterThan(0);
  const res = await fetch(`${baseUrl}/api/v1/subscribers/${found.data[0]!.id}/actions/verify-caller`, {
    method: "POST",
    headers,
    body: JSON.stringify({ method: "override", agentUid, reason }),
  });
  expect(res.status, await res.text()).toBe(200);
}
