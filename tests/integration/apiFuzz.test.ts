import { randomBytes, randomInt } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { otherOperatorSeed } from "../support/fixtures";
import { sendRaw } from "../support/rawHttp";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { casesOf, describeRequest, isSignedIn, requestOf, type Caller, type Case } from "../support/fuzz/cases";
import { contractViolations } from "../support/fuzz/checks";
import {
  collectionsOf,
  operationsOf,
  vocabularyOf,
  type OpenApiDocument,
  type Operation,
} from "../support/fuzz/operations";
import { createStandInUsers, type StandInUsers } from "../support/fuzz/standInUsers";
import { SeenValues, type ValueContext } from "../support/fuzz/values";

// Every operation of the OpenAPI document, fed malformed and boundary input by every role over real
// HTTP (the real backend on this file's database and the real Auth emulator). Operations come from
// the document, so an endpoint added later is fuzzed without editing this file. A streaming answer
// (text/event-stream: GET /api/v1/live never ends by itself) passes once its headers arrive.
//
// FUZZ_SEED replays a run (the seed is printed); FUZZ_RUNS sets the cases of an operation without
// inputs, and one with inputs gets more (casesFor); FUZZ_OPERATION="POST /api/v1/device-claims"
// fuzzes one operation only.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31 - 1);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const ONLY = process.env.FUZZ_OPERATION;
/** Longer than this is a hang. */
const DEADLINE_MS = 5_000;
const MFA_REQUIRED = "/problems/mfa-required";

let backend: TestBackend;
let port: number;
let users: StandInUsers;
let operations: Operation[];
let ctx: ValueContext;

beforeAll(async () => {
  // Rate limits high enough that the requests behind them are fuzzed too; per-number SMS limits stay as they are.
  backend = await startTestBackend({
    rateLimits: {
      authPerIp: { max: 1_000_000, windowMs: 60_000 },
      smsPerIp: { max: 1_000_000, windowMs: 60_000 },
      claimPerUid: { max: 1_000_000, windowMs: 60_000 },
    },
    operatorSettingsTtlMs: 0,
  });
  const runTag = randomBytes(4).toString("hex");
  users = await createStandInUsers(backend, runTag);
  await backend.app.listen({ host: "127.0.0.1", port: 0 });
  port = (backend.app.server.address() as { port: number }).port;
  const document = (await backend.app.inject({ method: "GET", url: "/api/openapi.json" })).json<OpenApiDocument>();
  const all = operationsOf(document);
  operations = all.filter((op) => !ONLY || op.id === ONLY);
  ctx = { seen: new SeenValues(), vocabulary: vocabularyOf(document), collections: collectionsOf(all), runTag };
  // What exists, as the admin and the subscriber see it: cases then name real records.
  for (const op of all.filter(
    (o) => o.method === "GET" && o.pathParams.length === 0 && !o.query.some((q) => q.required),
  )) {
    for (const role of ["admin", "subscriber"] as const) {
      const res = await backend.app.inject({
        method: "GET",
        url: op.path,
        headers: { authorization: `Bearer ${await users.token(role)}`, "x-operator": "ATT" },
      });
      // JSON answers only: a file's bytes or the data export's zip carry no ids to collect.
      if (res.statusCode === 200 && /json/.test(String(res.headers["content-type"]))) ctx.seen.collect(res.json());
    }
  }
});

afterAll(async () => {
  await users?.remove().catch(() => {});
  await backend?.close();
});

const caller: Caller = {
  token: (role) => users.token(role),
  operatorOf: (role) => (role === "otherOperator" ? otherOperatorSeed.code : "ATT"),
  otherOperatorOf: (role) => (role === "otherOperator" ? "ATT" : otherOperatorSeed.code),
};

/** Cases for an operation: FUZZ_RUNS, and as many again for every ten inputs it has (parameters and body fields). */
const casesFor = (op: Operation) =>
  Math.ceil(
    RUNS * (1 + (op.pathParams.length + op.query.length + Object.keys(op.body?.schema.properties ?? {}).length) / 10),
  );

/** Statuses answered per operation, so a run shows how far its cases got (2xx: past every check). */
const statuses = new Map<string, Map<number, number>>();

/** Sends one case; resolves with what is wrong with the answer (nothing when it holds the contract). */
async function run(op: Operation, c: Case): Promise<string[]> {
  const request = await requestOf(op, c, caller);
  const described = () => `${op.id} as ${c.role}:\n  ${describeRequest(request, c.role)}`;
  let response;
  try {
    response = await sendRaw(port, request, DEADLINE_MS);
  } catch (error) {
    return [`${(error as Error).message}\n${described()}`];
  }
  const seen = statuses.get(op.id) ?? new Map<number, number>();
  statuses.set(op.id, seen.set(response.status, (seen.get(response.status) ?? 0) + 1));
  const violations = contractViolations(response);
  if (violations.length)
    return [`${violations.join("; ")}\n${described()}\n  → ${response.status} ${response.body.slice(0, 500)}`];
  if (response.status < 300 && !response.streaming && response.body) {
    try {
      ctx.seen.collect(JSON.parse(response.body));
    } catch {
      // not JSON: nothing to learn from
    }
  }
  // Undo what the request did to its caller, so later cases of the role are not all 401 or 403.
  if (isSignedIn(c.role) && response.status === 401) await users.restore(c.role);
  if (response.status === 403 && response.body.includes(MFA_REQUIRED)) await users.relaxSecurityPolicy();
  return [];
}

/** A failed property as text: the shrunk request as sent, what was wrong with its answer, and how to replay it. */
function failureReport(op: Operation, result: fc.RunDetails<[Case]>): string {
  const clipped = JSON.stringify(result.counterexample?.[0] ?? null, (_key, value: unknown) =>
    typeof value === "string" && value.length > 200 ? `${value.slice(0, 200)}… (${value.length} characters)` : value,
  );
  const error =
    result.errorInstance instanceof Error
      ? result.errorInstance.message
      : typeof result.errorInstance === "string"
        ? result.errorInstance
        : (JSON.stringify(result.errorInstance) ?? "interrupted");
  return (
    `${op.id}: failed after ${result.numRuns} cases, shrunk ${result.numShrinks} times\n${error}\n` +
    `  case: ${clipped}\n  replay: FUZZ_SEED=${SEED} FUZZ_OPERATION="${op.id}" (fast-check path ${result.counterexamplePath})`
  );
}

describe("every operation of the OpenAPI document under malformed input", () => {
  it(
    "answers every case within 5 s, never 5xx, never shows its insides, and every 4xx is an RFC 9457 problem",
    { timeout: 300_000 },
    async () => {
      expect(operations.length).toBeGreaterThan(0);
      console.log(
        `API fuzz (${process.env.TEST_DB ?? "pglite"}): seed ${SEED}, ${RUNS} cases per operation and more for those with inputs; replay with FUZZ_SEED=${SEED}`,
      );
      const failures: string[] = [];
      const counts: [string, number][] = [];
      const started = performance.now();
      for (const op of operations) {
        let tried = 0;
        const property = fc.asyncProperty(casesOf(op, ctx), async (c) => {
          tried++;
          const problems = await run(op, c);
          if (problems.length) throw new Error(problems.join("\n"));
        });
        const result = await fc.check(property, {
          seed: SEED,
          numRuns: casesFor(op),
          interruptAfterTimeLimit: 60_000,
          markInterruptAsFailure: true,
        });
        counts.push([op.id, tried]);
        if (result.failed) failures.push(failureReport(op, result));
      }
      const total = counts.reduce((sum, [, n]) => sum + n, 0);
      console.log(
        `${counts
          .map(
            ([id, n]) =>
              `  ${String(n).padStart(5)}  ${id.padEnd(50)} ${[...(statuses.get(id) ?? [])]
                .sort(([a], [b]) => a - b)
                .map(([status, k]) => `${status}×${k}`)
                .join(" ")}`,
          )
          .join("\n")}\n  ${String(total).padStart(5)}  cases in total, ${counts.length} operations, ` +
          `${((performance.now() - started) / 1000).toFixed(1)} s, seed ${SEED}`,
      );
      expect(failures, failures.join("\n\n")).toEqual([]);
    },
  );
});
