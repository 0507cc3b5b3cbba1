import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { outboxMessages, staffMembers } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/db/seed/demoData";
import { EMULATOR_HOST } from "./authEmulator";
import { signInWithPassword, type TestBackend } from "./testBackend";

/**
 * The password setup link a staff invitation emailed to `email` (the outbox: POST /staff never
 * returns it to the inviter), the latest one.
 */
export async function invitationLinkFor(db: Db, email: string): Promise<string> {
  const [message] = await db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.recipient, email.toLowerCase()), eq(outboxMessages.kind, "staff.invitation")))
    .orderBy(desc(outboxMessages.createdAt))
    .limit(1);
  const link = message?.params.passwordSetupLink;
  if (typeof link !== "string") throw new Error(`No staff invitation was emailed to ${email}`);
  return link;
}

/** What the invitee does with the emailed link: sets their password through the emulator's REST API (as the reset page would). */
export async function setPasswordWithLink(link: string, password: string): Promise<void> {
  const oobCode = new URL(link).searchParams.get("oobCode");
  const res = await fetch(
    `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ oobCode, newPassword: password }),
    },
  );
  if (!res.ok) throw new Error(`The invitation link did not set a password: ${await res.text()}`);
}

/**
 * A throwaway admin of ATT on the staff record with no inviter, as seeded staff are (a different
 * person, trusted to decide approvals and confirm colleagues), signed in. The caller deletes `uid`.
 */
export async function seededAdmin(
  backend: TestBackend,
  tag = "seeded-admin",
): Promise<{ uid: string; email: string; token: string }> {
  const email = `${tag}-${randomUUID()}@att.example`;
  const user = await backend.auth.createUser({ email, password: DEMO_PASSWORD, emailVerified: true });
  await backend.auth.setCustomUserClaims(user.uid, { role: "admin", operator: "ATT" });
  await backend.database.db.insert(staffMembers).values({ uid: user.uid, operatorCode: "ATT", email, role: "admin" });
  return { uid: user.uid, email, token: await signInWithPassword(email) };
}
