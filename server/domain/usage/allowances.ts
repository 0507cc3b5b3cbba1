import { sql, type SQL } from "drizzle-orm";
import { METER_UNITS, type UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import { addOnDataOf } from "../addOns/addOnData";
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

/** The allowances of the given lines, by line id. */
export async function allowancesOf(db: Executor, lineIds: readonly string[]): Promise<Map<string, LineAllowances>> {
  if (lineIds.length === 0) return new Map();
  const rows = await allowanceRows(db, sql`l.id = any(${sql.param([...lineIds])}::uuid[])`);
  return new Map(rows.map((row) => [row.lineId, row]));
}

/**
 * The lines that hold the given numbers for the operator, with their allowances, by number (the
 * usage ingest's lookup, on the index of every line's number, migration 0046). A number given again
 * after its quarantine (issue 28) is on a cancelled line and a live one: the live one counts, else
 * the newest.
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
    sql`distinct on (l.msisdn)`,
    sql`order by l.msisdn, l.status = 'terminated', l.created_at desc`,
  );
  return new Map(rows.map((row) => [row.msisdn, row]));
}

/**
 * Lines with their accounts, their plans' allowances and rates, and the MB their add-ons (data and
 * roaming passes) add while they last: the lines in one statement, their few plans in another, the
 * add-ons by line in a third (each on its own index, whatever the batch). Raw rows rather than the
 * query builder: the ingest reads thousands a batch, and mapping them through drizzle cost more than
 * the query.
 */
async function allowanceRows(
  db: Executor,
  where: SQL,
  distinct: SQL = sql``,
  order: SQL = sql``,
): Promise<LineAllowances[]> {
  const rows = rowsOf<{
    id: string;
    msisdn: string;
    cycle_day: number;
    status: string;
    owner_uid: string | null;
    email: string | null;
    plan_id: string;
    account_id: string;
    account_type: "prepaid" | "postpaid";
    pay_as_you_go: boolean;
    data_cap_mb: number | null;
  }>(
    await db.execute(sql`
      select ${distinct} l.id, l.msisdn, l.cycle_day, l.status, a.owner_uid, a.email, l.plan_id,
        a.id as account_id, a.type as account_type, l.pay_as_you_go, l.data_cap_mb
      from lines l join accounts a on a.id = l.account_id
      where ${where}
      ${order}`),
  );
  if (rows.length === 0) return [];
  const plans = new Map(
    rowsOf<{
      id: string;
      data_mb: number | null;
      voice_minutes: number | null;
      sms: number | null;
      currency: string;
      overage: Overage | null;
      sharing: string;
    }>(
      await db.execute(sql`
        select id, data_mb, voice_minutes, sms, currency, overage, sharing from plans
        where id = any(${sql.param([...new Set(rows.map((r) => r.plan_id))])}::uuid[])`),
    ).map((plan) => [plan.id, plan]),
  );
  const extra = await addOnDataOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const plan = plans.get(row.plan_id)!;
    const addOnMb = extra.get(row.id) ?? 0;
    return {
      lineId: row.id,
      msisdn: row.msisdn,
      cycleDay: row.cycle_day,
      status: row.status,
      ownerUid: row.owner_uid,
      email: row.email,
      allowance: {
        data: plan.data_mb === null ? null : plan.data_mb + addOnMb,
        voice: plan.voice_minutes,
        sms: plan.sms,
      },
      accountId: row.account_id,
      accountType: row.account_type,
      currency: plan.currency,
      overage: plan.overage ?? null,
      payAsYouGo: row.pay_as_you_go,
      ...(plan.sharing === "pool" ? { poolMb: plan.data_mb } : {}),
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
