import { z } from "zod";
import { defineResource } from "./define";

/**
 * Who has a page of a subscriber or a ticket open right now (issue 27, item 8): staff see "Maria is
 * also here" before two of them answer one caller. Kept in the Realtime Database, not the backend:
 * each viewer writes their own record when the page opens and the database removes it when they
 * leave or their connection drops (`onDisconnect`), which the backend cannot know in time.
 *
 * A record lives at /presence/<operator>/<place>/<uid> (see `rtdb.groupBy`), and
 * database.rules.json is generated from this declaration (src/providers/rtdb/rtdbRules.ts): staff of
 * the operator read a place's viewers, and each writes and removes only their own record.
 */

/** The pages presence is kept for, and the key of one of them: `subscriber:<id>`, `ticket:<id>`. */
export const PRESENCE_PLACES = ["subscriber", "ticket"] as const;
export type PresencePlaceKind = (typeof PRESENCE_PLACES)[number];

// A database key may not hold . # $ [ ] or /; the ids of the portal's records never do.
const placeKey = new RegExp(`^(${PRESENCE_PLACES.join("|")}):[^.#$/\\[\\]]+$`);

export function presencePlace(kind: PresencePlaceKind, id: string): string | undefined {
  const key = `${kind}:${id}`;
  return id && placeKey.test(key) ? key : undefined;
}

export const presenceSchema = z.object({
  /** The viewer's uid: the record's key. */
  id: z.string(),
  place: z.string().regex(placeKey),
  /** The viewer's display name, as their colleagues know them. */
  name: z.string().min(1),
  /** When they opened the page (the database's clock, ms since 1970). */
  since: z.number(),
});
export type PresenceRecord = z.output<typeof presenceSchema>;

export const presenceResource = defineResource({
  name: "presence",
  label: "presence.label",
  icon: "TeamOutlined",
  schema: presenceSchema,
  recordTitle: "name",
  fields: {
    place: { label: "presence.fields.place", kind: "text" },
    name: { label: "presence.fields.name", kind: "text" },
    since: { label: "presence.fields.since", kind: "datetime" },
  },
  list: { columns: ["name", "since"], defaultSort: [{ field: "since", order: "asc" }], sortable: [], filters: {} },
  show: ["name", "since"],
  access: {
    list: { agent: "all", admin: "all" },
    create: { agent: "own", admin: "own" },
    delete: { agent: "own", admin: "own" },
  },
  source: "rtdb",
  rtdb: { groupBy: "place" },
  audit: false,
  menu: false,
  messages: {
    en: {
      "presence.label": "Who is here",
      "presence.fields.place": "Page",
      "presence.fields.name": "Name",
      "presence.fields.since": "Here since",
      "presence.alsoHere.one": "{{names}} is also here",
      "presence.alsoHere.other": "{{names}} are also here",
    },
    es: {
      "presence.label": "Quién está aquí",
      "presence.fields.place": "Página",
      "presence.fields.name": "Nombre",
      "presence.fields.since": "Aquí desde",
      "presence.alsoHere.one": "{{names}} también está aquí",
      "presence.alsoHere.other": "{{names}} también están aquí",
    },
  },
});
