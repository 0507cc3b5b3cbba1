// CPU time of PostgreSQL's server processes on this machine, for the benches that set the database's
// work apart from the backend's: /proc/<pid>/stat of each backend serving the bench's database
// (utime + stime, in 10 ms ticks). NaN where /proc cannot be read (another machine, another user).
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../server/db/client";
import { rowsOf } from "../server/db/rowsOf";

/** The server pids of every connection to the bench's own database now. */
export async function databaseBackendPids(database: Database): Promise<number[]> {
  const rows = rowsOf<{ pid: number }>(
    await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database()`),
  );
  return rows.map((row) => row.pid);
}

/** CPU milliseconds the processes have used so far, each by pid; a pid gone since counts as absent. */
export function cpuMsByPid(pids: readonly number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      used.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // ended: its time is lost to both readings
      return new Map([[pid, NaN]]);
    }
  }
  return used;
}

/** What the processes used between two readings; a pid first seen in the second counts from its start. */
export function cpuMsBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  for (const ms of before.values()) if (Number.isNaN(ms)) return NaN;
  return total;
}
