import { eq, inArray, notInArray, sql } from "drizzle-orm";
import { accounts, operators, staffMembers } from "../../../server/db/schema";
import type { DemoUser } from "../../../server/db/seed/demoData";
import { seedAuthUsers } from "../../../server/auth/seedAuthUsers";
import { seedStaff } from "../../../server/db/seed/seedStaff";
import { ADMIN, AGENT, ALEX, TAYLOR } from "../fixtures";
import { signInWithPassword, type TestBackend } from "../testBackend";
import type { SignedInRole } from "./cases";

const PASSWORD = "Fuzz-2026!";

/** Which demo user each signed-in role stands in for, and the owner uid of that user's accounts in the seed. */
const STAND_INS: Record<
  SignedInRole,
  { for: string; role: DemoUser["role"]; operator: string; ownsAccountsOf?: string }
> = {
  subscriber: { for: ALEX, role: "subscriber", operator: "ATT", ownsAccountsOf: "demo-alex" },
  agent: { for: AGENT, role: "agent", operator: "ATT" },
  admin: { for: ADMIN, role: "admin", operator: "ATT" },
  otherOperator: { for: TAYLOR, role: "subscriber", operator: "TMO", ownsAccountsOf: "tmo-taylor" },
};

export interface StandInUsers {
  users: Record<SignedInRole, DemoUser>;
  token(role: SignedInRole): Promise<string>;
  /** Undoes what a fuzzed request may have done to the user (signed out everywhere, disabled, role changed) and signs in afresh. */
  restore(role: SignedInRole): Promise<void>;
  /** Turns the staff MFA requirement off again (a fuzzed PUT /security-policy may turn it on). */
  relaxSecurityPolicy(): Promise<void>;
  /** Deletes these users and every user their requests invited from the Auth emulator. */
  remove(): Promise<void>;
}

/**
 * Throwaway copies of alex@example.com, agent@att.example, admin@att.example and taylor@tmo.example
 * for the fuzzer: same roles and operators, and in this backend's database the subscribers own the
 * accounts and lines of the users they stand in for, and the staff table holds only these staff.
 * The demo users themselves are shared with every suite running at the same time, and a fuzzed
 * request may sign its caller out everywhere or have an admin disable an agent, so they are never used.
 */
export async function createStandInUsers(backend: TestBackend, runTag: string): Promise<StandInUsers> {
  const users = Object.fromEntries(
    Object.entries(STAND_INS).map(([role, spec]) => [
      role,
      {
        uid: `fuzz-${runTag}-${role}`,
        email: `fuzz-${runTag}-${role.toLowerCase()}@example.test`,
        password: PASSWORD,
        displayName: `Stand-in for ${spec.for}`,
        role: spec.role,
        operator: spec.operator,
      },
    ]),
  ) as Record<SignedInRole, DemoUser>;
  const all = Object.values(users);
  await seedAuthUsers(backend.auth, all);
  const db = backend.database.db;
  for (const [role, spec] of Object.entries(STAND_INS) as [SignedInRole, (typeof STAND_INS)[SignedInRole]][]) {
    if (spec.ownsAccountsOf)
      await db.update(accounts).set({ ownerUid: users[role].uid }).where(eq(accounts.ownerUid, spec.ownsAccountsOf));
  }
  await db.delete(staffMembers).where(
    notInArray(
      staffMembers.uid,
      all.map((u) => u.uid),
    ),
  );
  await seedStaff(db, all);

  const tokens = new Map<SignedInRole, string>();
  const signIn = async (role: SignedInRole) => {
    const token = await signInWithPassword(users[role].email, PASSWORD);
    tokens.set(role, token);
    return token;
  };
  return {
    users,
    token: async (role) => tokens.get(role) ?? signIn(role),
    async restore(role) {
      const user = users[role];
      await backend.auth.updateUser(user.uid, { disabled: false });
      await backend.auth.setCustomUserClaims(user.uid, { role: user.role, operator: user.operator });
      await signIn(role);
    },
    async relaxSecurityPolicy() {
      await db.update(operators).set({ settings: sql`${operators.settings} || '{"requireStaffMfa": false}'::jsonb` });
    },
    async remove() {
      const invited = await db
        .select({ uid: staffMembers.uid })
        .from(staffMembers)
        .where(
          inArray(
            staffMembers.invitedBy,
            all.map((u) => u.uid),
          ),
        );
      await backend.auth.deleteUsers([...all.map((u) => u.uid), ...invited.map((r) => r.uid)]);
    },
  };
}
