import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./freePort";

const run = promisify(execFile);

/**
 * A PostgreSQL primary and a hot standby of it, as two clusters of their own made with this machine's
 * PostgreSQL binaries: initdb, then pg_basebackup -R of the primary, streaming replication between
 * them. Neither touches the machine's server on 5432 (whose pg_hba has no replication entry).
 */
export interface PrimaryWithStandby {
  primaryUrl: string;
  standbyUrl: string;
  /** Stops replaying WAL on the standby (it keeps answering, with older data), and resumes it. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** A fast shutdown of the standby: its sessions are ended, new connections refused. */
  stopStandby(): Promise<void>;
  close(): Promise<void>;
}

/** The folder of initdb, pg_ctl, pg_basebackup and postgres; null when this machine has none. */
export function postgresBinaries(): string | null {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort().reverse() : [];
  for (const version of versions) {
    const bin = `/usr/lib/postgresql/${version}/bin`;
    if (["initdb", "pg_ctl", "pg_basebackup", "postgres"].every((tool) => existsSync(join(bin, tool)))) return bin;
  }
  return null;
}

// PostgreSQL refuses to run as root: as root, the clusters belong to the `postgres` user.
const asRoot = process.getuid?.() === 0;
const ownerIds = async () => {
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
};

export async function startPrimaryWithStandby(): Promise<PrimaryWithStandby> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("No PostgreSQL server binaries under /usr/lib/postgresql.");
  const tool = (name: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(bin, name), ...args]) : run(join(bin, name), args);
  const root = mkdtempSync(join(tmpdir(), "hot-standby-"));
  if (asRoot) {
    const { uid, gid } = await ownerIds();
    chownSync(root, uid, gid);
  }
  const primaryDir = join(root, "primary");
  const standbyDir = join(root, "standby");
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  // Small and unsynced: a test's clusters, thrown away after it.
  const options = (port: number) =>
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${root} -c fsync=off ` +
    "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=16MB -c max_connections=60 " +
    "-c wal_level=replica -c max_wal_senders=4 -c hot_standby=on -c wal_receiver_status_interval=1s";
  const started: string[] = [];
  const stop = async (dir: string, mode: "fast" | "immediate") => {
    await tool("pg_ctl", ["-D", dir, "-m", mode, "-w", "stop"]).catch(() => {});
  };
  try {
    // initdb's own pg_hba trusts replication connections from 127.0.0.1.
    await tool("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    await tool("pg_ctl", [
      "-D",
      primaryDir,
      "-o",
      options(primaryPort),
      "-l",
      join(root, "primary.log"),
      "-w",
      "start",
    ]);
    started.push(primaryDir);
    await tool("pg_basebackup", [
      "-h",
      "127.0.0.1",
      "-p",
      String(primaryPort),
      "-U",
      "postgres",
      "-D",
      standbyDir,
      "-R",
      "-X",
      "stream",
      "-c",
      "fast",
      "--no-sync",
    ]);
    await tool("pg_ctl", [
      "-D",
      standbyDir,
      "-o",
      options(standbyPort),
      "-l",
      join(root, "standby.log"),
      "-w",
      "start",
    ]);
    started.push(standbyDir);
  } catch (error) {
    for (const dir of started.reverse()) await stop(dir, "immediate");
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const standbyUrl = `postgres://postgres@127.0.0.1:${standbyPort}/postgres`;
  const onStandby = async (text: string) => {
    const client = new pg.Client({ connectionString: standbyUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl,
    standbyUrl,
    pauseReplay: () => onStandby("select pg_wal_replay_pause()"),
    resumeReplay: () => onStandby("select pg_wal_replay_resume()"),
    stopStandby: () => stop(standbyDir, "fast"),
    async close() {
      await stop(standbyDir, "immediate");
      await stop(primaryDir, "immediate");
      rmSync(root, { recursive: true, force: true });
    },
  };
}
