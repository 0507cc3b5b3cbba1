import { and, eq, inArray } from "drizzle-orm";
import { MAX_INGEST_BATCH, type UsageRecordInput } from "#resources/usage";
import type { Db } from "../client";
import { lines, plans } from "../schema";
import { ingestUsage } from "../../domain/usage/ingest";
import type { OperatorSeed } from "./demoData";

const DAY_MS = 86_400_000;

/** A small deterministic generator (mulberry32), so every start makes the same records for a day. */
function generator(seedText: string) {
  let seed = [...seedText].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface SeedLine {
  msisdn: string;
  dataMb: number | null;
  voiceMinutes: number | null;
  sms: number | null;
}

/**
 * One day of plausible usage of one line: a few data sessions, calls and texts in waking hours,
 * sized so a month uses 30–60 % of each allowance (a few GB a month when unlimited). Record ids
 * name the line, day and number, so the same day is never counted twice.
 */
export function dayOfUsage(line: SeedLine, day: Date): UsageRecordInput[] {
  const date = day.toISOString().slice(0, 10);
  const random = generator(`${line.msisdn}:${date}`);
  const share = 0.3 + 0.3 * generator(line.msisdn)(); // how heavy a user this line is, the same every day
  const perDay = (allowance: number | null, unlimited: number) => ((allowance ?? unlimited) * share) / 30;
  const records: UsageRecordInput[] = [];
  const add = (type: UsageRecordInput["type"], count: number, total: number) => {
    for (let n = 0; n < count; n++) {
      const at = new Date(Date.parse(`${date}T00:00:00Z`) + (7 + random() * 16) * 3_600_000);
      const quantity = Math.max(1, Math.round((total / count) * (0.5 + random())));
      records.push({
        id: `seed-${line.msisdn.slice(1)}-${date}-${type}-${n}`,
        msisdn: line.msisdn,
        type,
        startedAt: at.toISOString(),
        quantity,
        roamingZone: null,
      });
    }
  };
  add("data", 6, perDay(line.dataMb, 8 * 1024));
  add("voice", 4, perDay(line.voiceMinutes, 300) * 60);
  add("sms", 3, Math.max(3, perDay(line.sms, 90)));
  return records;
}

/**
 * The last `days` days of usage of the seed's own lines (those still active or suspended), through
 * the ingest itself (counters, alerts). Lines the seed did not make (a subscriber's new line, a
 * test's) get no invented traffic: a restart would otherwise count made-up calls on them.
 * Idempotent: a record already counted is skipped, so a start on a later day adds only the days
 * since; records after `now` wait for a later start.
 */
export async function seedUsage(db: Db, seed: OperatorSeed, now = new Date(), days = 30): Promise<{ counted: number }> {
  const seeded = seed.accounts.flatMap((account) => account.lines.map((line) => line.msisdn));
  const rows = await db
    .select({ msisdn: lines.msisdn, dataMb: plans.dataMb, voiceMinutes: plans.voiceMinutes, sms: plans.sms })
    .from(lines)
    .innerJoin(plans, eq(lines.planId, plans.id))
    .where(
      and(
        eq(lines.operatorCode, seed.code),
        inArray(lines.msisdn, seeded),
        inArray(lines.status, ["active", "suspended"]),
      ),
    );
  const records = rows
    .flatMap((line) =>
      Array.from({ length: days }, (_, i) =>
        dayOfUsage(line, new Date(now.getTime() - (days - 1 - i) * DAY_MS)),
      ).flat(),
    )
    .filter((r) => Date.parse(r.startedAt) <= now.getTime());
  let counted = 0;
  for (let i = 0; i < records.length; i += MAX_INGEST_BATCH)
    counted += (await ingestUsage(db, seed.code, records.slice(i, i + MAX_INGEST_BATCH))).result.counted;
  return { counted };
}
