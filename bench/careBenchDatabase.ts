import { TEST_DATABASE_URL } from "../tests/support/testDatabase";

/** The care bench's own database on the test PostgreSQL server (never the shared `test` one). */
export const CARE_BENCH_DB = process.env.CARE_BENCH_DB ?? "care_bench";

export function careBenchUrl(): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${CARE_BENCH_DB}`;
  return url.toString();
}
