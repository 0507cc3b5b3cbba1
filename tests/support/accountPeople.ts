import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { ALEX } from "./fixtures";
import { signInWithPassword, signUpWithPassword, type TestBackend } from "./testBackend";

// The people of a family account (issue 28) as the integration suites make them: a new subscriber
// signed up through the Auth emulator, and an invitation the holder sends and that person accepts.

export interface NewPerson {
  email: string;
  uid: string;
  token: string;
}

/** A new person who signs up with a password and becomes a subscriber of ATT (as the portal does), with a fresh token. */
export async function newSubscriber(backend: TestBackend, tag: string): Promise<NewPerson> {
  const email = `${tag}-${randomUUID()}@example.com`;
  const { uid, idToken } = await signUpWithPassword(email, DEMO_PASSWORD);
  const claimed = await backend.send("POST", "/api/v1/me/claim", { token: idToken });
  expect(claimed.statusCode, claimed.body).toBe(200);
  return { email, uid, token: await signInWithPassword(email) };
}

/**
 * The holder (alex unless `as` says otherwise) invites `person` to `accountId` as `role` (a member: of
 * `lineIds`) through the declared action, and the person accepts the link; the acceptance's answer.
 */
export async function joinAccount(
  backend: TestBackend,
  accountId: string,
  person: { email: string; token: string },
  role: "member" | "manager",
  lineIds: string[],
  as = ALEX,
): Promise<{ accountId: string; role: string }> {
  const invited = await backend.send("POST", `/api/v1/accounts/${accountId}/actions/invite-member`, {
    as,
    body: { email: person.email, role, lineIds },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const accepted = await backend.send("POST", "/api/v1/account-invitations/accept", {
    token: person.token,
    body: { token: new URL(invited.json<{ invitationUrl: string }>().invitationUrl).hash.slice(1) },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  return accepted.json<{ accountId: string; role: string }>();
}
