import { describe, expect, it } from "vitest";
import { isReplicaFailure, lsnBytes } from "../../server/db/readReplicas";

describe("read replicas: what the router compares and when it turns to the primary", () => {
  it("orders WAL positions by bytes, across the high word", () => {
    expect(lsnBytes("0/3001178")).toBe(0x3001178n);
    expect(lsnBytes("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnBytes("1/0") > lsnBytes("0/FFFFFFFF")).toBe(true);
  });

  it("answers from the primary when the standby is gone or shutting down, never for the query's own fault", () => {
    for (const failure of [
      { code: "ECONNREFUSED" },
      { code: "57P01", message: "terminating connection due to administrator command" },
      { code: "57P03", message: "the database system is starting up" },
      { code: "08006" },
      { code: "40001", message: "canceling statement due to conflict with recovery" },
      new Error("Connection terminated unexpectedly"),
      new Error("timeout exceeded when trying to connect"),
    ])
      expect(isReplicaFailure(failure), JSON.stringify(failure)).toBe(true);
    for (const own of [
      { code: "42P01", message: 'relation "nope" does not exist' },
      { code: "22P02", message: "invalid input syntax for type uuid" },
      { code: "57014", message: "canceling statement due to statement timeout" },
      new Error("boom"),
      undefined,
    ])
      expect(isReplicaFailure(own), JSON.stringify(own)).toBe(false);
  });
});
