// `npm run cycle:close`: runs the carrier's day now, as the daily job `billing.run-day` and
// `POST /api/v1/billing-runs` do (server/domain/billingRuns/run.ts): prepaid renewals due (auto top-up
// first), grace endings, postpaid cycle close, bills past due become overdue, add-on renewals.
// Idempotent: running it twice changes nothing the second time. Uses the backend's configuration
// (DATABASE_URL, or the PGlite folder DATA_DIR, which the backend must not hold open at the same time).
// Card auto top-ups need the backend's gateways: this script leaves them to the backend's own job.
//
//   npm run cycle:close                      (AS_OF=2026-12-12 to run as of another day)
import { isoDate } from "../src/resources/common";
import { loadServerConfig } from "../server/config";
import { openDatabase } from "../server/db/client";
import { runBillingDay } from "../server/domain/billingRuns/run";

async function main() {
  const config = loadServerConfig();
  const asOf = process.env.AS_OF ?? new Date().toISOString().slice(0, 10);
  if (!isoDate.safeParse(asOf).success) throw new Error(`AS_OF must be a date as YYYY-MM-DD, not ${process.env.AS_OF}`);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const result = await runBillingDay({ db: database.db }, { operatorCode: config.operator, asOf });
    console.log(
      `${config.operator} as of ${asOf}: ${result.renewed} prepaid plans renewed, ${result.enteredGrace} lines in grace, ${result.suspended} suspended after grace, ${result.billsIssued} bills issued, ${result.overdue} bills now overdue`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
