import { sql, type SQL } from "drizzle-orm";
import { METER_UNITS, type UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import type { Overage } from "#resources/overage";

/** A line with what its meters are measured against: its plan's allowances (null = unlimited). */
export interface LineAllowances {
  lineId: string;
  msisdn: string;
  cycleDay: number;
  status: string;
  ownerUid: string | null;
  email: string | null;
  allowance: Record<UsageType, number | null>;
  accountId: string;
  accountType: "prepaid" | "postpaid";
  /** The plan's currency (the operator's). */
  currency: string;
  /** The plan's rates past the allowance (null = capped for every type). */
  overage: Overage | null;
  payAsYouGo: boolean;
  /**
   * On a shared plan (issue 28): the account's data allowance for all its lines on the plan, in MB
   * (null = unlimited); `undefined` when the line's data is its own.
   */
  poolMb?: number | null;
  /** What the line's add-ons add to its data now, in MB (on a shared plan, drawn before the pool). */
  addOnMb: number;
  /** The owner's monthly data cap of the line in MB (null = none). */
  dataCapMb: number | null;
}

/**
 * The allowance the line's own counter is rated against: on a shared plan its data is only its
 * add-ons' MB (what goes past them draws from the account's pool, rating.ts); otherwise its allowance.
 */
export function ownAllowance(line: LineAllowances, type: UsageType): number | null {
  return type === "data" && line.poolMb !== undefined ? line.addOnMb : line.allowance[type];
}

/** The allowances of the given lines, by line id (one query). */
export async function allowancesOf(db: Executor, lineIds: readonly string[]): Promise<Map<string, LineAllowances>> {
  if (lineIds.length === 0) return new Map();
  const rows = await allowanceRows(db, sql`l.id = any(${sql.param([...lineIds])}::uuid[])`, new Date());
  return new Map(rows.map((row) => [row.lineId, row]));
}

/**
 * The lines that hold the given numbers for the operator, with their allowances, by number (one
 * query: the usage ingest's lookup). A number given again after its quarantine (issue 28) is on a
 * cancelled line and a live one: the live one counts, else the newest.
 */
export async function allowancesOfNumbers(
  db: Executor,
  operator: string,
  numbers: readonly string[],
): Promise<Map<string, LineAllowances>> {
  if (numbers.length === 0) return new Map();
  const rows = await allowanceRows(
    db,
    sql`l.operator_code = ${operator} and l.msisdn = any(${sql.param([...numbers])}::text[])`,
    new Date(),
    sql`distinct on (l.msisdn)`,
    sql`order by l.msisdn, l.status = 'terminated', l.created_at desc`,
  );
  return new Map(rows.map((row) => [row.msisdn, row]));
}

/**
 * Lines with their plans' allowances and rates, their accounts, and the MB their add-ons (data and
 * roaming passes) add while they last at `now`. Raw rows rather than the query builder: the ingest
 * reads thousands a batch, and mapping them through drizzle cost more than the query.
 */
async function allowanceRows(
  db: Executor,
  where: SQL,
  now: Date,
  distinct: SQL = sql``,
  order: SQL = sql``,
): Promise<LineAllowances[]> {
  const at = now.toISOString();
  const rows = rowsOf<{
    id: string;
    msisdn: string;
    cycle_day: number;
    status: string;
    owner_uid: string | null;
    email: string | null;
    data_mb: number | null;
    voice_minutes: number | null;
    sms: number | null;
    account_id: string;
    account_type: "prepaid" | "postpaid";
    currency: string;
    overage: Overage | null;
    pay_as_you_go: boolean;
    sharing: string;
    data_cap_mb: number | null;
    add_on_mb: string | number | null;
  }>(
    await db.execute(sql`
      select ${distinct} l.id, l.msisdn, l.cycle_day, l.status, a.owner_uid, a.email, p.data_mb, p.voice_minutes, p.sms,
        a.id as account_id, a.type as account_type, p.currency, p.overage, l.pay_as_you_go, p.sharing, l.data_cap_mb,
        (select sum(ap.data_mb) from add_on_purchases ap
          where ap.line_id = l.id and ap.status = 'active' and ap.starts_at <= ${at}::timestamptz and ap.expires_at > ${at}::timestamptz) as add_on_mb
      from lines l join accounts a on a.id = l.account_id join plans p on p.id = l.plan_id
      where ${where}
      ${order}`),
  );
  return rows.map((row) => {
    const addOnMb = Number(row.add_on_mb ?? 0);
    return {
      lineId: row.id,
      msisdn: row.msisdn,
      cycleDay: row.cycle_day,
      status: row.status,
      ownerUid: row.owner_uid,
      email: row.email,
      allowance: {
        data: row.data_mb === null ? null : row.data_mb + addOnMb,
        voice: row.voice_minutes,
        sms: row.sms,
      },
      accountId: row.account_id,
      accountType: row.account_type,
      currency: row.currency,
      overage: row.overage ?? null,
      payAsYouGo: row.pay_as_you_go,
      ...(row.sharing === "pool" ? { poolMb: row.data_mb } : {}),
      addOnMb,
      dataCapMb: row.data_cap_mb,
    };
  });
}

/** A counter's value in the meter's unit: seconds of voice become minutes, rounded up (a started minute counts). */
export function meterValue(type: UsageType, counted: number): number {
  return METER_UNITS[type] === "minutes" ? Math.ceil(counted / 60) : counted;
}

/** An allowance in the records' own unit (voice allowances are minutes, records seconds); null = unlimited. */
export function allowanceInRecordUnits(type: UsageType, allowance: number | null): number | null {
  return allowance === null ? null : METER_UNITS[type] === "minutes" ? allowance * 60 : allowance;
}
