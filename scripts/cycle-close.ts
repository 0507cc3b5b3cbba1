// `npm run cycle:close`: closes the billing cycle now, as the daily job does (server/domain/money/billingJobs.ts):
// every postpaid account of the operator whose last cycle has no bill gets one, then bills past due
// become overdue. Idempotent: running it twice bills nothing twice. Uses the backend's configuration
// (DATABASE_URL, or the PGlite folder DATA_DIR, which the backend must not hold open at the same time).
//
//   npm run cycle:close                      (AS_OF=2026-12-12 to close as of another day)
import { loadServerConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { closeCycles, markOverdueBills } from "../server/domain/money/billing";

async function main() {
  const config = loadServerConfig();
  const asOf = process.env.AS_OF ? new Date(`${process.env.AS_OF}T12:00:00Z`) : new Date();
  if (Number.isNaN(asOf.getTime())) throw new Error(`AS_OF must be a date as YYYY-MM-DD, not ${process.env.AS_OF}`);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { issued, skipped } = await closeCycles(database.db, { operatorCode: config.operator, asOf });
    const overdue = await markOverdueBills(database.db, { asOf });
    console.log(`${config.operator} as of ${asOf.toISOString().slice(0, 10)}: ${issued.length} bills issued, ${skipped} accounts already billed for their last cycle, ${overdue.length} bills now overdue`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
