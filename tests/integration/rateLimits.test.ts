import { count } from "drizzle-orm";
import { textIn, verbatim } from "../../server/i18n/words";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { rateLimitWindows } from "../../server/db/schema";
import { ProblemError } from "../../server/errors";
import { createRateLimiter, SWEEP_EVERY_MS, type LimitHit, type RateLimits } from "../../server/lib/rateLimits";
import { openAnotherHandle, openTestDatabase } from "../support/testDatabase";

// The rate limiter on the real database (TEST_DB): the sliding-window semantics with a clock the
// test moves, counting across two handles (on PostgreSQL two pools, as two instances have), and
// the sweep that keeps the table small. Each test uses keys of its own.

let database: Database;
let other: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  other = await openAnotherHandle(database);
});

afterAll(async () => {
  await other?.close();
  await database?.close();
});

function clock(start = 1_900_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const claim = (key: string): LimitHit => ({ limit: "claimPerUid", key, detail: verbatim(`slow down, ${key}`) });
const limits: Partial<RateLimits> = {
  claimPerUid: { max: 3, windowMs: 10_000 },
  smsPerNumber: { max: 2, windowMs: 60_000 },
  smsPerIp: { max: 3, windowMs: 60_000 },
};
const rows = async () => (await database.db.select({ n: count() }).from(rateLimitWindows))[0]!.n;

describe("rate limiter", () => {
  it("allows max hits per window, then tells how long until the oldest leaves it; refusals are not counted", async () => {
    const c = clock();
    const limiter = createRateLimiter(database.db, { limits, now: c.now });
    expect(await limiter.take([claim("window")])).toEqual({ allowed: true, retryAfterMs: 0, refused: [] });
    c.advance(2_000);
    await limiter.take([claim("window")]);
    c.advance(2_000);
    await limiter.take([claim("window")]);
    c.advance(1_000);
    for (let i = 0; i < 3; i++)
      expect(await limiter.take([claim("window")])).toMatchObject({ allowed: false, retryAfterMs: 5_000 });
    c.advance(4_999);
    expect(await limiter.take([claim("window")])).toMatchObject({ allowed: false, retryAfterMs: 1 });
    c.advance(1);
    expect((await limiter.take([claim("window")])).allowed).toBe(true); // the first hit left; the refusals never counted
    expect(await limiter.take([claim("window")])).toMatchObject({ allowed: false, retryAfterMs: 2_000 });
    expect((await limiter.take([claim("another key")])).allowed).toBe(true);
  });

  it("enforce() throws a 429 problem with Retry-After in whole seconds and the refusing limit's detail", async () => {
    const c = clock();
    const limiter = createRateLimiter(database.db, {
      limits: { claimPerUid: { max: 1, windowMs: 60_000 } },
      now: c.now,
    });
    await limiter.enforce([claim("enforced")]);
    c.advance(10_500);
    const error = await limiter.enforce([claim("enforced")]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 429, message: "slow down, enforced", headers: { "retry-after": "50" } });
  });

  it("several limits decide together: when one refuses, none counts the hit", async () => {
    const c = clock();
    const limiter = createRateLimiter(database.db, { limits, now: c.now });
    const sms = (number: string, ip: string): LimitHit[] => [
      { limit: "smsPerNumber", key: number, detail: verbatim("for this number") },
      { limit: "smsPerIp", key: ip, detail: verbatim("from this network") },
    ];
    expect((await limiter.take(sms("+12025550111", "192.0.2.1"))).allowed).toBe(true);
    expect((await limiter.take(sms("+12025550111", "192.0.2.2"))).allowed).toBe(true);
    // The number is spent: the address must not be charged for the refusal.
    const refused = await limiter.take(sms("+12025550111", "192.0.2.1"));
    expect(refused).toMatchObject({ allowed: false, refused: [{ limit: "smsPerNumber" }] });
    expect((await limiter.take(sms("+12025550112", "192.0.2.1"))).allowed).toBe(true);
    expect((await limiter.take(sms("+12025550113", "192.0.2.1"))).allowed).toBe(true);
    // Now the address is spent too: both refuse, the longest wait is given, the number's detail first.
    c.advance(1_000);
    const both = await limiter.take(sms("+12025550113", "192.0.2.1"));
    expect(both.refused.map((hit) => hit.limit)).toEqual(["smsPerIp"]);
    const twice = await limiter.take([...sms("+12025550111", "192.0.2.1")]);
    expect(twice).toMatchObject({ allowed: false, retryAfterMs: 59_000 });
    expect(twice.refused.map((hit) => textIn("en", hit.detail))).toEqual(["for this number", "from this network"]);
  });

  it("record: false asks without counting", async () => {
    const limiter = createRateLimiter(database.db, { limits: { claimPerUid: { max: 1, windowMs: 60_000 } } });
    for (let i = 0; i < 3; i++) expect((await limiter.take([claim("dry")], { record: false })).allowed).toBe(true);
    await limiter.take([claim("dry")]);
    expect(await limiter.take([claim("dry")], { record: false })).toMatchObject({ allowed: false });
    await expect(limiter.enforce([claim("dry")], { record: false })).rejects.toMatchObject({ status: 429 });
  });

  it("two instances count the same hits, also when they take at the same moment", async () => {
    const mine = createRateLimiter(database.db, { limits: { claimPerUid: { max: 5, windowMs: 60_000 } } });
    const theirs = createRateLimiter(other.db, { limits: { claimPerUid: { max: 5, windowMs: 60_000 } } });
    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? mine : theirs).take([claim("concurrent")])),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect((await mine.take([claim("concurrent")])).allowed).toBe(false);
    expect((await theirs.take([claim("concurrent")])).allowed).toBe(false);
  });

  it("keeps no key in clear text", async () => {
    const limiter = createRateLimiter(database.db);
    await limiter.take([{ limit: "smsPerNumber", key: "+12025550177", detail: verbatim("x") }]);
    const stored = JSON.stringify(await database.db.select().from(rateLimitWindows));
    expect(stored).not.toContain("2025550177");
  });

  it("rows whose window has passed are swept, at most once a minute by a take", async () => {
    const c = clock(2_000_000_000_000);
    const limiter = createRateLimiter(database.db, {
      limits: { claimPerUid: { max: 5, windowMs: 1_000 } },
      now: c.now,
    });
    await limiter.sweep();
    const start = await rows();
    for (let i = 0; i < 10; i++) await limiter.take([claim(`sweep-${i}`)]);
    expect(await rows()).toBe(start + 10);
    c.advance(SWEEP_EVERY_MS - 1);
    await limiter.take([claim("sweep-late")]); // not yet a minute since the last sweep
    expect(await rows()).toBe(start + 11);
    c.advance(1);
    await limiter.take([claim("sweep-last")]); // sweeps the ten whose window has passed
    expect(await rows()).toBe(2); // sweep-late's hit is still in its window, and sweep-last's
    c.advance(1_000);
    await limiter.sweep();
    expect(await rows()).toBe(0);
  });
});
