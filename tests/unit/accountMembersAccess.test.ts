import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { sourceScope, type Principal } from "#resources/access";
import type { SourceScope } from "#resources/define";
import { resources } from "#resources/index";
import { lines, usageRecords } from "../../server/db/schema";
import { operatorScope, tableSource } from "../../server/domain/tableSource";
import type { ApiRecord } from "../../server/engine/types";
import { accounts } from "../../server/db/schema";

// The one access decision per role (issue 28 item 6): the account's holder, a manager and a member of
// the account (all subscribers by role: which one a person is comes from account_members, read in
// SQL per request), another subscriber, an agent and an admin.
type Who = "owner" | "manager" | "member" | "otherSubscriber" | "agent" | "admin";
type Reach = boolean | "verified" | "their lines";

/** What the decision gives each person: a subscriber's "own…" scope says which of them reach the record. */
function reachOf(resourceName: string, action: string): Record<Who, Reach> {
  const resource = resources.find((r) => r.name === resourceName)!;
  const forSubscriber = sourceScope({ role: "subscriber" }, resource, action);
  const staff = (role: "agent" | "admin"): Reach => {
    const scope = sourceScope({ role }, resource, action);
    return scope === "verified" ? "verified" : scope !== null;
  };
  const own = (levels: readonly SourceScope[]) => forSubscriber !== null && levels.includes(forSubscriber);
  return {
    owner: own(["own", "own+managers", "own+people", "all"]),
    manager: own(["own+managers", "own+people", "all"]),
    member: forSubscriber === "all" ? true : own(["own+people"]) ? "their lines" : false,
    otherSubscriber: forSubscriber === "all",
    agent: staff("agent"),
    admin: staff("admin"),
  };
}

const row = (owner: Reach, manager: Reach, member: Reach, agent: Reach, admin: Reach) => ({
  owner,
  manager,
  member,
  otherSubscriber: false,
  agent,
  admin,
});

describe("who reaches what on an account (sourceScope per role)", () => {
  const table: [string, string, Record<Who, Reach>][] = [
    ["lines", "list", row(true, true, "their lines", "verified", true)],
    ["lines", "show", row(true, true, "their lines", "verified", true)],
    ["lines", "swap-sim", row(true, true, "their lines", "verified", true)],
    ["lines", "lock-number", row(true, true, "their lines", false, true)],
    ["lines", "suspend", row(true, true, "their lines", "verified", true)],
    ["lines", "change-plan", row(true, true, false, "verified", true)],
    ["lines", "buy-add-on", row(true, true, false, "verified", true)],
    ["lines", "port-out-pin", row(true, true, false, false, false)],
    ["usage-records", "list", row(true, true, "their lines", "verified", true)],
    ["usage-records", "show", row(true, true, "their lines", "verified", true)],
    ["orders", "show", row(true, true, "their lines", "verified", true)],
    ["orders", "cancel", row(true, true, false, "verified", true)],
    ["invoices", "list", row(true, true, false, "verified", true)],
    ["invoices", "show", row(true, true, false, "verified", true)],
    ["invoices", "pay", row(true, false, false, "verified", true)],
    ["ledger-entries", "list", row(true, true, false, "verified", true)],
    ["top-ups", "show", row(true, true, false, "verified", true)],
    ["payment-methods", "list", row(true, false, false, "verified", true)],
    ["payment-methods", "show", row(true, false, false, "verified", true)],
    ["accounts", "show", row(true, true, false, "verified", true)],
    ["accounts", "redeem-voucher", row(true, true, false, "verified", true)],
    ["accounts", "set-autopay", row(true, false, false, "verified", true)],
    ["accounts", "set-auto-top-up", row(true, false, false, "verified", true)],
    ["accounts", "invite-member", row(true, false, false, "verified", true)],
    ["accounts", "remove-member", row(true, false, false, "verified", true)],
  ];
  it.each(table)("%s %s", (resource, action, expected) => {
    expect(reachOf(resource, action)).toEqual(expected);
  });
});

describe("the scope in SQL", () => {
  const dialect = new PgDialect();
  const text = (condition: Parameters<PgDialect["sqlToQuery"]>[0]) => dialect.sqlToQuery(condition);
  const alex: Principal = { uid: "demo-alex", operator: "ATT", role: "subscriber" };
  const source = tableSource({
    table: usageRecords,
    account: lines.accountId,
    line: usageRecords.lineId,
    columns: {},
    toRecord: (r: Record<string, unknown>) => r as ApiRecord,
  });

  it('keeps "own" the holder\'s alone', () => {
    const own = text(source.scope(alex, "own"));
    expect(own.sql).not.toContain("account_members");
    expect(own.params).toEqual(["ATT", "demo-alex"]);
  });

  it("reads managers and members from account_members on every request, the principal's values as parameters", () => {
    const managers = text(source.scope(alex, "own+managers"));
    expect(managers.sql).toContain('"accounts"."id" in (select "account_members"."account_id"');
    expect(managers.sql).not.toContain("account_member_lines");
    expect(managers.params).toEqual(["ATT", "demo-alex", "ATT", "demo-alex"]);
    const people = text(source.scope(alex, "own+people"));
    expect(people.sql).toContain('"usage_records"."line_id" in (select "account_member_lines"."line_id"');
    expect(people.params).toEqual(["ATT", "demo-alex", "ATT", "demo-alex", "ATT", "demo-alex"]);
    expect(source.knowsAccounts).toBe(true);
    expect(source.knowsLines).toBe(true);
  });

  it("refuses to reach members' lines without knowing each row's line, and never widens other owners", () => {
    const noLine = operatorScope(usageRecords.operatorCode, { owner: accounts.ownerUid });
    expect(() => noLine(alex, "own+people")).toThrow(/line/);
    const cards = tableSource({
      table: usageRecords,
      owner: usageRecords.id,
      columns: {},
      toRecord: (r: Record<string, unknown>) => r as ApiRecord,
    });
    expect(text(cards.scope(alex, "own+managers")).sql).not.toContain("account_members");
    expect(cards.knowsAccounts).toBe(false);
  });
});
