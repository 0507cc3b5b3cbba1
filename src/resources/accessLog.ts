import { z } from "zod";
import type { ResourceDefinition } from "./define";
import { isoDateTime } from "./common";
import type { StaffRole } from "./staff";

/**
 * The access log (issue 27 item 3): every staff read of a subscriber's data, at most once per staff
 * member, subscriber and section in this many minutes (a sliding window: the next row comes only
 * when the last one is older than that).
 */
export const ACCESS_LOG_WINDOW_MINUTES = 10;

/**
 * Which resources hold a subscriber's data: those whose declaration says how a record is owned
 * (`ownership`). Every read of such a record by staff is logged for its owner; nothing is listed by
 * hand, so a new resource with owners is logged from its first day.
 */
export const holdsSubscriberData = (resource: Pick<ResourceDefinition, "ownership">): boolean =>
  resource.ownership !== undefined;

/** Sections of the subscriber 360 that no resource serves (server/domain/subscribers/routes.ts). */
export const SUBSCRIBER_360_SECTIONS = ["identity", "notifications"] as const;

/**
 * The team a subscriber is shown for a staff member. Staff records have no team of their own: the
 * role is the team (care agents are the care team, admins the care supervisors), kept as it was at
 * the read.
 */
export const STAFF_TEAMS = ["care", "supervisors"] as const;
export type StaffTeam = (typeof STAFF_TEAMS)[number];
export const teamOfRole = (role: StaffRole): StaffTeam => (role === "admin" ? "supervisors" : "care");

/** One visit as the subscriber sees it: who (name and team, never an email or uid), what, when. */
export const accessLogEntrySchema = z.object({
  id: z.uuid(),
  /** When the read was logged (the first read of its 10 minutes). */
  at: isoDateTime,
  /** The staff member's first name and initial ("Casey A."); null when they have no display name. */
  staffName: z.string().nullable(),
  team: z.enum(STAFF_TEAMS),
  /** What they looked at: a resource's name ("invoices") or a 360 section ("identity"); the portal words it. */
  section: z.string(),
});
export type AccessLogEntry = z.output<typeof accessLogEntrySchema>;

/** `GET /api/v1/me/access-log`: pages of the subscriber's own visits, newest first. */
export const accessLogQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(10),
  })
  .strict();
