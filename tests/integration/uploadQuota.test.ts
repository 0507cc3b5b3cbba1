import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedFiles } from "../../server/db/schema";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { expectProblem } from "../support/problems";
import { signInWithPassword, startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";

// A subscriber's upload quota: at most 50 files or 200 MB in any 24 hours, 429 past it. Before,
// uploads had no quota. Every uploader here is a throwaway subscriber; the byte limit and the race
// use instances with small quotas (200 MB would not fit a test).

const PASSWORD = "Throwaway-2026!";
let backend: TestBackend;
const created: string[] = [];

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  if (!backend) return;
  await Promise.all(created.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
  await backend.close();
});

async function subscriber(tag: string) {
  const email = `${tag}-${randomUUID()}@example.test`;
  const { uid } = await backend.auth.createUser({ email, password: PASSWORD });
  created.push(uid);
  await backend.auth.setCustomUserClaims(uid, { role: "subscriber", operator: "ATT" });
  return { uid, token: await signInWithPassword(email, PASSWORD) };
}

/** A PDF of exactly `size` bytes (its signature, then spaces). */
const pdfOf = (size: number) => Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(size - SAMPLE_FILES.pdf.length, 0x20)]);

const upload = (instance: TestInstance, token: string, bytes: Buffer = SAMPLE_FILES.png, language = "en") =>
  instance.send("POST", "/api/v1/files?name=scan", {
    token,
    body: bytes,
    headers: { "content-type": "application/octet-stream", "accept-language": language },
  });

const filesOf = async (uid: string) =>
  (
    await backend.database.db
      .select({ n: count() })
      .from(storedFiles)
      .where(and(eq(storedFiles.operatorCode, "ATT"), eq(storedFiles.ownerUid, uid)))
  )[0]!.n;

describe("a subscriber's upload quota", () => {
  it("50 files a day: the 51st is 429 with Retry-After until the first leaves the day, and is not stored", async () => {
    const { uid, token } = await subscriber("quota-files");
    for (let i = 0; i < 50; i++) {
      const res = await upload(backend, token);
      expect(res.statusCode, `upload ${i + 1}: ${res.body}`).toBe(201);
    }
    const refused = await upload(backend, token);
    expect(expectProblem(refused, 429).detail).toBe(
      "You have uploaded 50 files in the last 24 hours, the most allowed; try again later.",
    );
    expect(expectProblem(await upload(backend, token, SAMPLE_FILES.png, "es"), 429).detail).toBe(
      "Subiste 50 archivos en las últimas 24 horas, el máximo permitido; inténtalo de nuevo más tarde.",
    );
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await filesOf(uid)).toBe(50);
    // Another subscriber's quota is their own.
    expect((await upload(backend, (await subscriber("quota-neighbour")).token)).statusCode).toBe(201);
  });

  it("bytes count too: an upload that would go past the day's bytes is 429, a smaller one still fits", async () => {
    const small = await backend.startAnotherInstance({ uploadQuota: { maxBytes: 330 } });
    const { uid, token } = await subscriber("quota-bytes");
    for (let i = 0; i < 2; i++) expect((await upload(small, token, pdfOf(120))).statusCode).toBe(201);
    expect(expectProblem(await upload(small, token, pdfOf(120)), 429).detail).toMatch(/past 0.00033 MB/);
    // Every digit kept, as the portal's Spanish (es-US) writes decimals.
    expect(expectProblem(await upload(small, token, pdfOf(120), "es"), 429).detail).toMatch(
      /^Con este archivo superarías los 0\.00033 MB subidos en las últimas 24 horas/,
    );
    expect((await upload(small, token, pdfOf(90))).statusCode).toBe(201);
    expect(await filesOf(uid)).toBe(3);
  });

  it("uploads sent at once cannot all take the last places", async () => {
    const three = await backend.startAnotherInstance({ uploadQuota: { maxFiles: 3 } });
    const { uid, token } = await subscriber("quota-race");
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => upload(three, token)))).map(
      (res) => res.statusCode,
    );
    expect(statuses.sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await filesOf(uid)).toBe(3);
  });

  it("staff are not held to it", async () => {
    const three = await backend.startAnotherInstance({ uploadQuota: { maxFiles: 1 } });
    const agent = await backend.tokenFor("agent@att.example");
    for (let i = 0; i < 2; i++) expect((await upload(three, agent)).statusCode).toBe(201);
  });
});
