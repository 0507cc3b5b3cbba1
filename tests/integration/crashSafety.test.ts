import { randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { auditEvents, resourceDocuments } from "../../server/db/schema";
import { startBackendProcess, type BackendProcess } from "../support/backendProcess";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";
import { signInWithPassword } from "../support/testBackend";
import { createThrowawayPostgresDatabase } from "../support/testDatabase";

// The real backend as a child process on this project's database (TEST_DB: PGlite on disk, or a
// throwaway PostgreSQL database): SIGKILL in the middle of a burst of writes, restart on the same
// data, and every acknowledged write is there exactly once with its audit row; then SIGTERM drains.
const DRIVER = process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
const ROUNDS = 3;
const WRITES_PER_ROUND = 60;
const CONCURRENCY = 6;
const CLAIMS = "/api/v1/device-claims";

interface Claim {
  id: string;
  description: string;
}
interface Write {
  key: string;
  body: { lineId: string; incident: string; occurredOn: string; description: string };
  /** The record of a 201, or why there was none. */
  outcome?: { status: number; id?: string } | { error: string };
}

let store: { env: Record<string, string>; open: () => ReturnType<typeof openDatabase>; remove(): Promise<void> };
let server: BackendProcess | undefined;
let lineId: string;
const runTag = randomBytes(3).toString("hex");
const tokens: Record<string, string> = {};

/** Where the backend keeps its data: a PGlite folder, or a PostgreSQL database, both thrown away afterwards. */
async function throwawayStore(): Promise<typeof store> {
  if (DRIVER === "postgres") {
    const database = await createThrowawayPostgresDatabase();
    return {
      env: { DATABASE_URL: database.url },
      open: () => openDatabase({ url: database.url, dataDir: "" }),
      remove: () => database.drop(),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "portal-crash-"));
  return {
    env: { DATA_DIR: dir },
    open: () => openDatabase({ dataDir: dir }),
    remove: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

async function api(
  method: string,
  path: string,
  as: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${tokens[as]}`,
      "x-operator": "ATT",
      ...(options.body ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
  };
}

/** Every page of a list, as the admin sees it. */
async function listAll<T>(path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const res = await api("GET", `${path}${path.includes("?") ? "&" : "?"}pageSize=100&page=${page}`, ADMIN);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data, total } = res.body as { data: T[]; total: number };
    rows.push(...data);
    if (data.length === 0 || rows.length >= total) return rows;
  }
}

/** Sends the writes, a few at a time, and SIGKILLs the backend once `killAfter` of them were acknowledged. */
async function burstThenKill(writes: Write[], killAfter: number): Promise<void> {
  let next = 0;
  let acknowledged = 0;
  const worker = async () => {
    while (next < writes.length && server!.alive()) {
      const write = writes[next++]!;
      try {
        const res = await api("POST", CLAIMS, ALEX, { body: write.body, headers: { "idempotency-key": write.key } });
        write.outcome = { status: res.status, ...(res.status === 201 ? { id: String(res.body?.id) } : {}) };
        if (res.status === 201 && ++acknowledged === killAfter) server!.signal("SIGKILL");
      } catch (error) {
        write.outcome = { error: (error as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // Fewer acknowledgements than killAfter (all refused?) still ends in a kill: the round is about the restart.
  server!.signal("SIGKILL");
  await server!.exited;
}

/** What the restarted backend holds of one round: its claims (found by their marker) and their create audit rows. */
async function holdings(marker: string) {
  const claims = await listAll<Claim>(`${CLAIMS}?q=${encodeURIComponent(marker)}`);
  const creates = (
    await listAll<{ targetId: string | null; after: { description?: string } | null }>(
      `/api/v1/audit-events?filter[action]=device-claims.create`,
    )
  ).filter((event) => event.after?.description?.startsWith(marker));
  const count = <K>(keys: K[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>());
  return {
    claims,
    byDescription: count(claims.map((c) => c.description)),
    auditsById: count(creates.map((e) => e.targetId)),
    creates,
  };
}

/** At debug level the backend logs each request's arrival too: the drain test waits for that line. */
const backendEnv = () => ({ ...store.env, LOG_LEVEL: "debug" });

beforeAll(async () => {
  store = await throwawayStore();
  server = await startBackendProcess(backendEnv());
  // The backend seeded the demo users (idempotently) on start; the suite only reads and files claims as them.
  for (const email of [ALEX, AGENT, ADMIN]) tokens[email] = await signInWithPassword(email);
  const lines = await api("GET", "/api/v1/lines", ALEX);
  lineId = String((lines.body as { data: { id: string }[] }).data[0]!.id);
}, 180_000);

afterAll(async () => {
  server?.signal("SIGKILL");
  await server?.exited;
  await store?.remove();
});

describe(`the backend process on ${DRIVER}`, () => {
  it(
    `SIGKILL during a burst of writes loses nothing acknowledged and leaves nothing half-written (${ROUNDS} rounds)`,
    { timeout: 300_000 },
    async () => {
      const problems: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const marker = `crash-${runTag}-r${round}`;
        const writes: Write[] = Array.from({ length: WRITES_PER_ROUND }, (_, i) => ({
          key: `${marker}-key-${i}`,
          body: {
            lineId,
            incident: "damage",
            occurredOn: "2024-05-01",
            description: `${marker} write ${i}: the screen cracked`,
          },
        }));
        const killAfter = randomInt(8, 31);
        await burstThenKill(writes, killAfter);
        server = await startBackendProcess(backendEnv()); // the same data: it must open

        const acked = writes.filter((w) => w.outcome && "status" in w.outcome && w.outcome.status === 201);
        const refused = writes.filter((w) => w.outcome && "status" in w.outcome && w.outcome.status !== 201);
        const held = await holdings(marker);
        const missing = acked.filter(
          (w) =>
            held.byDescription.get(w.body.description) !== 1 ||
            !held.claims.some((c) => c.id === (w.outcome as { id: string }).id),
        );
        const duplicated = [...held.byDescription].filter(([, n]) => n > 1).map(([d]) => d);
        const withoutAudit = held.claims.filter((c) => held.auditsById.get(c.id) !== 1);
        const auditWithoutRecord = held.creates.filter((e) => !held.claims.some((c) => c.id === e.targetId));
        const committedUnanswered = writes.filter(
          (w) => !acked.includes(w) && held.byDescription.has(w.body.description),
        ).length;

        // Retrying with the same Idempotency-Key after the crash: the acknowledged ones replay their record.
        let replayed = 0;
        for (const write of acked) {
          const res = await api("POST", CLAIMS, ALEX, { body: write.body, headers: { "idempotency-key": write.key } });
          if (
            res.status === 201 &&
            res.headers.get("idempotent-replayed") === "true" &&
            res.body?.id === (write.outcome as { id: string }).id
          )
            replayed++;
          else
            problems.push(
              `round ${round}: retrying acknowledged ${write.key} answered ${res.status} ${JSON.stringify(res.body)}`,
            );
        }
        // The unanswered ones either replay, create once, or are refused while the killed request's reservation ages (409).
        for (const write of writes.filter((w) => !acked.includes(w) && !refused.includes(w))) {
          const res = await api("POST", CLAIMS, ALEX, { body: write.body, headers: { "idempotency-key": write.key } });
          if (res.status !== 201 && res.status !== 409)
            problems.push(
              `round ${round}: retrying unanswered ${write.key} answered ${res.status} ${JSON.stringify(res.body)}`,
            );
        }
        const after = await holdings(marker);
        const duplicatedAfterRetries = [...after.byDescription].filter(([, n]) => n > 1).length;
        const halfAfterRetries = after.claims.filter((c) => after.auditsById.get(c.id) !== 1).length;

        console.log(
          `crash round ${round} (${DRIVER}): ${writes.length} sent, SIGKILL after ${killAfter} acknowledged; ${acked.length} acknowledged, ` +
            `${acked.length - missing.length} found, ${missing.length} missing, ${duplicated.length} duplicated, ` +
            `${withoutAudit.length + auditWithoutRecord.length} half-written; ${committedUnanswered} committed without an answer; ` +
            `${replayed}/${acked.length} retries replayed; after retrying the rest: ${duplicatedAfterRetries} duplicated, ${halfAfterRetries} half-written`,
        );
        if (refused.length)
          problems.push(
            `round ${round}: ${refused.length} writes refused before the kill: ${refused
              .map((w) => JSON.stringify(w.outcome))
              .slice(0, 3)
              .join(", ")}`,
          );
        if (acked.length === 0) problems.push(`round ${round}: no write was acknowledged before the kill`);
        if (missing.length)
          problems.push(
            `round ${round}: acknowledged but not there exactly once: ${missing.map((w) => w.key).join(", ")}`,
          );
        if (duplicated.length || duplicatedAfterRetries)
          problems.push(`round ${round}: duplicated: ${duplicated.join(", ")}`);
        if (withoutAudit.length || auditWithoutRecord.length || halfAfterRetries) {
          problems.push(
            `round ${round}: half-written: ${withoutAudit.map((c) => c.id).join(", ")} ${auditWithoutRecord.map((e) => e.targetId).join(", ")}`,
          );
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it(
    "SIGTERM finishes a request in flight with 2xx, ends open event streams, refuses new connections and exits 0",
    { timeout: 120_000 },
    async () => {
      const running = server!;
      const until = async (what: string, condition: () => boolean | Promise<boolean>, ms = 20_000) => {
        const deadline = Date.now() + ms;
        while (!(await condition())) {
          if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };

      // An open event stream, as a portal tab keeps one.
      let streamEnded = false;
      await new Promise<void>((resolve, reject) => {
        const req = request(
          `${running.baseUrl}/api/v1/live?resources=device-claims`,
          { headers: { authorization: `Bearer ${tokens[AGENT]}`, "x-operator": "ATT" } },
          (res) => {
            if (res.statusCode !== 200) reject(new Error(`the event stream answered ${res.statusCode}`));
            res.on("data", () => {});
            res.on("close", () => (streamEnded = true));
            resolve();
          },
        );
        req.on("error", reject);
        req.end();
      });

      // A write whose body is still arriving when SIGTERM comes: the server has it, and must finish it.
      const requestId = `drain-${runTag}`;
      const body = Buffer.from(
        JSON.stringify({
          lineId,
          incident: "theft",
          occurredOn: "2024-05-02",
          description: `drain ${runTag}: stolen on the bus`,
        }),
      );
      let answer: { status: number; body: string } | undefined;
      let failure: Error | undefined;
      const inFlight = request(
        `${running.baseUrl}${CLAIMS}`,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${tokens[ALEX]}`,
            "x-operator": "ATT",
            "content-type": "application/json",
            "content-length": String(body.length),
            "x-request-id": requestId,
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => (answer = { status: res.statusCode ?? 0, body: text }));
        },
      );
      inFlight.on("error", (error) => (failure = error));
      inFlight.write(body.subarray(0, 20));
      await until("the server receiving the in-flight request", () =>
        running.logs.some((line) => line.includes(requestId) && line.includes("incoming request")),
      );

      running.signal("SIGTERM");
      await until(
        "new connections being refused",
        () =>
          new Promise<boolean>((resolve) => {
            const socket = connect(running.port, "127.0.0.1");
            socket.once("connect", () => (socket.destroy(), resolve(false)));
            socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
          }),
      );
      await until("the open event stream ending", () => streamEnded);
      expect(running.alive(), "the server exited with a request still in flight").toBe(true);

      inFlight.end(body.subarray(20));
      await until("the in-flight request's answer", () => answer !== undefined || failure !== undefined);
      expect(failure).toBeUndefined();
      expect(answer!.status, answer!.body).toBe(201);
      const { code, signal } = await running.exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      server = undefined;

      // What it answered is committed, with its audit row, and the database opens after the clean exit.
      const id = (JSON.parse(answer!.body) as { id: string }).id;
      const database = await store.open();
      try {
        const records = await database.db.select().from(resourceDocuments).where(eq(resourceDocuments.id, id));
        const audits = await database.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.targetId, id), eq(auditEvents.action, "device-claims.create")));
        expect([records.length, audits.length]).toEqual([1, 1]);
      } finally {
        await database.close();
      }
      console.log(
        `SIGTERM (${DRIVER}): the in-flight write answered ${answer!.status}, the event stream ended, new connections were refused, exit code ${code}`,
      );
    },
  );
});
