import { eq, sql } from "drizzle-orm";
import { METER_UNITS, type UsageType } from "#resources/usage";
import type { Executor } from "../../audit";
import { accounts, lines, plans } from "../../db/schema";
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

/** The allowances of the given lines, by line id (two queries: plans, then add-ons counting now). */
export async function allowancesOf(db: Executor, lineIds: readonly string[]): Promise<Map<string, LineAllowances>> {
  if (lineIds.length === 0) return new Map();
  const rows = await db
    .select({
      lineId: lines.id,
      msisdn: lines.msisdn,
      cycleDay: lines.cycleDay,
      status: lines.status,
      ownerUid: accounts.ownerUid,
      email: accounts.email,
      dataMb: plans.dataMb,
      voiceMinutes: plans.voiceMinutes,
      sms: plans.sms,
      accountId: accounts.id,
      accountType: accounts.type,
      currency: plans.currency,
      overage: plans.overage,
      payAsYouGo: lines.payAsYouGo,
      sharing: plans.sharing,
      dataCapMb: lines.dataCapMb,
    })
    .from(lines)
    .innerJoin(accounts, eq(lines.accountId, accounts.id))
    .innerJoin(plans, eq(lines.planId, plans.id))
    .where(sql`${lines.id} = any(${sql.param([...lineIds])}::uuid[])`);
  // Add-ons bought on a line (data and roaming passes) add their MB to its data allowance while they last.
  const extra = await addOnDataOf(db, lineIds);
  return new Map(
    rows.map((row) => [
      row.lineId,
      {
        lineId: row.lineId,
        msisdn: row.msisdn,
        cycleDay: row.cycleDay,
        status: row.status,
        ownerUid: row.ownerUid,
        email: row.email,
        allowance: {
          data: row.dataMb === null ? null : row.dataMb + (extra.get(row.lineId) ?? 0),
          voice: row.voiceMinutes,
          sms: row.sms,
        },
        accountId: row.accountId,
        accountType: row.accountType,
        currency: row.currency,
        overage: row.overage ?? null,
        payAsYouGo: row.payAsYouGo,
        ...(row.sharing === "pool" ? { poolMb: row.dataMb } : {}),
        addOnMb: extra.get(row.lineId) ?? 0,
        dataCapMb: row.dataCapMb,
      },
    ]),
  );
}

/** A counter's value in the meter's unit: seconds of voice become minutes, rounded up (a started minute counts). */
export function meterValue(type: UsageType, counted: number): number {
  return METER_UNITS[type] === "minutes" ? Math.ceil(counted / 60) : counted;
}

/** An allowance in the records' own unit (voice allowances are minutes, records seconds); null = unlimited. */
export function allowanceInRecordUnits(type: UsageType, allowance: number | null): number | null {
  return allowance === null ? null : METER_UNITS[type] === "minutes" ? allowance * 60 : allowance;
}
