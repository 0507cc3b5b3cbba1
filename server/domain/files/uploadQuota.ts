import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import { storedFiles } from "../../db/schema";
import type { Locale } from "#i18n/dictionaries";
import { tooManyRequests } from "../../errors";
import { textIn, words } from "../../i18n/words";

/** How much one subscriber may upload within a sliding window (a day): files and bytes. */
export interface UploadQuota {
  maxFiles: number;
  maxBytes: number;
  windowMs: number;
}

/** 50 files or 200 MB (decimal: 200,000,000 bytes) per subscriber in any 24 hours. */
export const DEFAULT_UPLOAD_QUOTA: UploadQuota = { maxFiles: 50, maxBytes: 200_000_000, windowMs: 24 * 60 * 60 * 1000 };

/** Megabytes as the reader writes decimals, every digit kept (a test quota is 0.00033 MB) and not grouped. */
const megabytesIn = (locale: Locale, bytes: number) =>
  (bytes / 1_000_000).toLocaleString(locale === "es" ? "es-US" : "en-US", {
    maximumFractionDigits: 20,
    useGrouping: false,
  });

/**
 * Refuses with 429 (Retry-After: when enough of the window's uploads have left it) an upload of
 * `incomingBytes` that would take the uploader past the quota. Counted from the uploads kept
 * (stored_files, by the owner index), so nothing else is stored. Inside the upload's transaction,
 * `lock` first serializes one uploader's uploads, so parallel ones cannot all fit in the last slot.
 */
export async function enforceUploadQuota(
  db: Executor,
  who: { operator: string; uid: string },
  incomingBytes: number,
  quota: UploadQuota,
  options: { lock?: boolean } = {},
): Promise<void> {
  if (options.lock)
    await db.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`upload-quota:${who.operator}:${who.uid}`}, 0))`,
    );
  const now = Date.now();
  const recent = await db
    .select({ size: storedFiles.size, createdAt: storedFiles.createdAt })
    .from(storedFiles)
    .where(
      and(
        eq(storedFiles.operatorCode, who.operator),
        eq(storedFiles.ownerUid, who.uid),
        gt(storedFiles.createdAt, new Date(now - quota.windowMs)),
      ),
    )
    .orderBy(asc(storedFiles.createdAt));
  let files = recent.length;
  let bytes = recent.reduce((sum, row) => sum + row.size, 0);
  const fits = () => files + 1 <= quota.maxFiles && bytes + incomingBytes <= quota.maxBytes;
  if (fits()) return;
  const byCount = files + 1 > quota.maxFiles;
  // The oldest uploads leave the window first: the wait is until the last of those that must go has.
  let leaving = -1;
  while (!fits() && leaving + 1 < recent.length) {
    leaving++;
    files--;
    bytes -= recent[leaving]!.size;
  }
  const waitMs = fits() && leaving >= 0 ? recent[leaving]!.createdAt.getTime() + quota.windowMs - now : quota.windowMs;
  const hours = Math.round(quota.windowMs / 3_600_000);
  throw tooManyRequests(
    byCount
      ? words("files.quota.files", { maxFiles: quota.maxFiles, hours })
      : (locale) =>
          textIn(locale, words("files.quota.bytes", { megabytes: megabytesIn(locale, quota.maxBytes), hours })),
    waitMs,
  );
}
