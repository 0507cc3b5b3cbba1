import { z } from "zod";

export const RESOURCE_EVENT_TYPES = ["created", "updated", "deleted"] as const;

/**
 * Something changed in a resource of an operator. Only ids travel, never record contents: receivers
 * refetch through the API, which applies every access rule again. `ownerUids` are the subscribers who
 * own the records (for resources a subscriber sees as "own"); the backend routes by them and never
 * sends them to browsers.
 */
export const resourceEventSchema = z.object({
  operator: z.string().min(1),
  resource: z.string().min(1),
  type: z.enum(RESOURCE_EVENT_TYPES),
  ids: z.array(z.string()),
  ownerUids: z.array(z.string()).optional(),
  /** ISO 8601 time of the change. */
  at: z.string(),
});
export type ResourceEvent = z.output<typeof resourceEventSchema>;

/** What a browser is told over GET /api/v1/live: never the operator or the owners. */
export type ClientResourceEvent = Pick<ResourceEvent, "resource" | "type" | "ids" | "at">;
