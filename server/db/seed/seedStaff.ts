import { isStaff } from "#resources/access";
import type { Db } from "../client";
import { staffMembers } from "../schema";
import type { DemoUser } from "./demoData";

/**
 * The staff rows of seeded sign-ins (agents and admins; subscribers are skipped). Idempotent: an
 * existing row, perhaps changed since by an admin, is left as it is.
 */
export async function seedStaff(db: Db, users: DemoUser[]): Promise<{ created: number }> {
  const staff = users.filter((u): u is DemoUser & { role: "agent" | "admin" } => isStaff(u.role));
  if (staff.length === 0) return { created: 0 };
  const rows = await db
    .insert(staffMembers)
    .values(
      staff.map((u) => ({
        uid: u.uid,
        operatorCode: u.operator,
        email: u.email.toLowerCase(),
        displayName: u.displayName,
        role: u.role,
      })),
    )
    .onConflictDoNothing()
    .returning({ uid: staffMembers.uid });
  return { created: rows.length };
}
