import type { StaffMember } from "#resources/staff";
import type { staffMembers } from "../../db/schema";

/** A staff row as the API shows it; its id is the Firebase uid. */
export const toMember = (row: typeof staffMembers.$inferSelect): StaffMember => ({
  id: row.uid,
  uid: row.uid,
  email: row.email,
  displayName: row.displayName,
  role: row.role,
  disabled: row.disabled,
  invitedBy: row.invitedBy,
  confirmed: row.invitedBy === null || row.confirmedBy !== null,
  confirmedBy: row.confirmedBy,
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});
