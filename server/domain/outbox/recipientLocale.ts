import { and, eq, inArray } from "drizzle-orm";
import type { Locale } from "#i18n/dictionaries";
import type { Executor } from "../../audit";
import { subscriberProfiles } from "../../db/schema";
import { savedLocale } from "../../i18n/requestLocale";

/**
 * The language each subscriber saved on their profile (issue 25), by uid: what is sent to them later
 * (an email, an SMS) is worded in it. Anyone without a saved one reads English.
 */
export async function savedLocalesOf(
  tx: Executor,
  operator: string,
  uids: readonly string[],
): Promise<Map<string, Locale>> {
  const locales = new Map<string, Locale>(uids.map((uid) => [uid, "en"]));
  if (uids.length === 0) return locales;
  const rows = await tx
    .select({ uid: subscriberProfiles.uid, details: subscriberProfiles.details })
    .from(subscriberProfiles)
    .where(and(eq(subscriberProfiles.operatorCode, operator), inArray(subscriberProfiles.uid, [...new Set(uids)])));
  for (const row of rows) locales.set(row.uid, savedLocale(row.details?.language));
  return locales;
}
