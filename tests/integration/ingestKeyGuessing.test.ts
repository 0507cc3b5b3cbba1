import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_INGEST_KEY } from "../../server/auth/serviceKeys";
import { expectProblem } from "../support/problems";
import { startTestBackend, type TestBackend } from "../support/testBackend";

// Guessing ingest keys: after 10 missing or unknown keys from one address within a minute, that
// address gets 429 (the right key too), others are not slowed. Before, 50 wrong keys in a row were
// 50 × 401. Each case uses client addresses of its own.

let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend(); // ATT's key is local mode's
});

afterAll(async () => {
  await backend?.close();
});

/** One batch of a record for a number nobody has (counted as unknown, stores nothing), from `from`. */
const ingest = (from: string, authorization: string | undefined) =>
  backend.app.inject({
    method: "POST",
    url: "/api/v1/usage-records/batch",
    remoteAddress: from,
    headers: { "content-type": "application/json", "x-operator": "ATT", ...(authorization ? { authorization } : {}) },
    payload: {
      records: [
        {
          id: `guess-${randomUUID()}`,
          msisdn: "+12025559999",
          type: "sms",
          startedAt: new Date(Date.now() - 60_000).toISOString(),
          quantity: 1,
        },
      ],
    },
  });

describe("POST /usage-records/batch with wrong API keys", () => {
  it("the 11th failure within a minute from one address is 429 with Retry-After, and so is the right key from it; other addresses go on", async () => {
    const guesser = "192.0.2.90";
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await ingest(guesser, i % 5 === 4 ? undefined : `ApiKey guess-${i}`)).statusCode);
    expect(statuses).toEqual(Array(10).fill(401));
    const refused = expectProblem(await ingest(guesser, "ApiKey guess-10"), 429);
    expect(refused.detail).toMatch(/wrong API key/);
    const retryAfter = Number((await ingest(guesser, `ApiKey ${LOCAL_INGEST_KEY}`)).headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectProblem(await ingest(guesser, `ApiKey ${LOCAL_INGEST_KEY}`), 429);

    const mediation = await ingest("192.0.2.91", `ApiKey ${LOCAL_INGEST_KEY}`);
    expect(mediation.statusCode, mediation.body).toBe(200);
    expect(mediation.json()).toMatchObject({ counted: 0, unknownLines: [{ index: 0, msisdn: "+12025559999" }] });
  });

  it("only failures count: the right key, sent often, is never slowed", async () => {
    const from = "192.0.2.92";
    for (let i = 0; i < 12; i++) expect((await ingest(from, `ApiKey ${LOCAL_INGEST_KEY}`)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await ingest(from, "ApiKey wrong")).statusCode).toBe(401);
    expectProblem(await ingest(from, "ApiKey wrong"), 429);
  });
});
