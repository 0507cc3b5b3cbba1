import { eq } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Principal } from "#resources/access";
import { accounts, approvals, plans, topUps } from "../../server/db/schema";
import { heldBy, operatorScope, tableSource } from "../../server/domain/tableSource";
import type { ApiRecord } from "../../server/engine/types";

// The one place domain modules get their operator scope (issue 25 item 10): what each kind of owner makes of it.
const dialect = new PgDialect();
const text = (condition: Parameters<PgDialect["sqlToQuery"]>[0]) => dialect.sqlToQuery(condition);

const subscriber: Principal = { uid: "sub-1", operator: "ATT", role: "subscriber" };
const agent: Principal = { uid: "agent-1", operator: "ATT", role: "agent" };

describe("operatorScope", () => {
  it("is the operator alone for operator-wide rows, whatever the scope", () => {
    const scope = operatorScope(plans.operatorCode);
    expect(text(scope(subscriber, "own"))).toMatchObject({ sql: '"plans"."operator_code" = $1', params: ["ATT"] });
    expect(text(scope(agent, "all")).params).toEqual(["ATT"]);
  });

  it('narrows "own" to the owner column and leaves "all" to the operator', () => {
    const scope = operatorScope(approvals.operatorCode, { owner: approvals.requestedBy });
    expect(text(scope(agent, "own"))).toMatchObject({
      sql: '("approvals"."operator_code" = $1 and "approvals"."requested_by" = $2)',
      params: ["ATT", "agent-1"],
    });
    expect(text(scope(agent, "all")).params).toEqual(["ATT"]);
  });

  it("shows subscribers only what is for them (the catalog on sale); staff everything", () => {
    const scope = operatorScope(plans.operatorCode, { forSubscribers: eq(plans.status, "active") });
    expect(text(scope(subscriber, "all")).params).toEqual(["ATT", "active"]);
    expect(text(scope(agent, "all")).params).toEqual(["ATT"]);
  });
});

describe("tableSource", () => {
  const source = tableSource({
    table: topUps,
    account: topUps.accountId,
    columns: {},
    toRecord: (row: Record<string, unknown>) => row as ApiRecord,
  });

  it("makes rows of an account: joined to it, with its holder, and a subscriber's are those they hold", () => {
    expect(text(source.scope(subscriber, "own"))).toMatchObject({
      sql: '("top_ups"."operator_code" = $1 and "accounts"."owner_uid" = $2)',
      params: ["ATT", "sub-1"],
    });
    expect(source.ownerUids({ ownerUid: "sub-1" })).toEqual(["sub-1"]);
    expect(source.id).toBe(topUps.id);
    expect(source.table).toBe(topUps);
  });

  it("has nobody hear operator-wide rows, and an account's holder hear theirs", () => {
    expect(
      tableSource({
        table: accounts,
        columns: {},
        toRecord: (row: Record<string, unknown>) => row as ApiRecord,
      }).ownerUids({}),
    ).toEqual([]);
    expect(heldBy({ ownerUid: null })).toEqual([]);
  });
});
