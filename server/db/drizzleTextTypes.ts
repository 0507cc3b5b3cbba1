// drizzle-orm reads dates, times, intervals and a few arrays as the text PostgreSQL sends and parses
// them itself (the columns' decoders). Whoever runs drizzle's queries outside drizzle's own session
// must ask the driver for the same: PGlite once per instance (pgliteParsers.ts), node-postgres on
// the prepared read (engine/preparedRead.ts).

const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const INTERVAL = 1186;
const DATE = 1082;
const NUMERIC = 1700;

/** The type ids drizzle reads as text, each array type with its element type (null: not an array). */
export const DRIZZLE_TEXT_TYPES: Readonly<Record<number, number | null>> = {
  [TIMESTAMP]: null,
  [TIMESTAMPTZ]: null,
  [INTERVAL]: null,
  [DATE]: null,
  1115: TIMESTAMP,
  1185: TIMESTAMPTZ,
  1187: INTERVAL,
  1182: DATE,
  1231: NUMERIC,
};
