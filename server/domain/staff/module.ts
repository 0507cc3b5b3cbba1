import { count, eq, ilike, or } from "drizzle-orm";
import type { Executor } from "../../audit";
import { staffMembers } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { toMember } from "./member";
import { staffRoutes } from "./routes";

type StaffRow = typeof staffMembers.$inferSelect;

/** The operator's care agents and admins (their Firebase users carry the same role in claims). */
export const staffModule: DomainModule<StaffRow> = {
  source: {
    rows: (db: Executor) => db.select().from(staffMembers).$dynamic(),
    count: (db: Executor) => db.select({ total: count() }).from(staffMembers).$dynamic(),
    id: staffMembers.uid,
    table: staffMembers,
    columns: {
      email: staffMembers.email,
      displayName: staffMembers.displayName,
      role: staffMembers.role,
      disabled: staffMembers.disabled,
      createdAt: staffMembers.createdAt,
    },
    scope: (principal) => eq(staffMembers.operatorCode, principal.operator),
    search: (q) =>
      or(ilike(staffMembers.email, `%${escapeLike(q)}%`), ilike(staffMembers.displayName, `%${escapeLike(q)}%`)),
    toRecord: toMember,
    ownerUids: () => [],
  },
  extraRoutes: staffRoutes,
};
