import { ilike, or } from "drizzle-orm";
import { staffMembers } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { toMember } from "./member";
import { tableSource } from "../tableSource";
import { staffRoutes } from "./routes";

type StaffRow = typeof staffMembers.$inferSelect;

/** The operator's care agents and admins (their Firebase users carry the same role in claims). */
export const staffModule: DomainModule<StaffRow> = {
  source: tableSource({
    table: staffMembers,
    id: staffMembers.uid,
    columns: {
      email: staffMembers.email,
      displayName: staffMembers.displayName,
      role: staffMembers.role,
      disabled: staffMembers.disabled,
      createdAt: staffMembers.createdAt,
    },
    search: (q) =>
      or(ilike(staffMembers.email, `%${escapeLike(q)}%`), ilike(staffMembers.displayName, `%${escapeLike(q)}%`)),
    toRecord: toMember,
  }),
  extraRoutes: staffRoutes,
};
