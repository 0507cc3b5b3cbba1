import { and, eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { accounts, lines } from "../../server/db/schema";
import { attSeed } from "../../server/db/seed/demoData";
import { seedOperator } from "../../server/db/seed/seedDatabase";
import { linesModule } from "../../server/domain/lines/module";
import { preparedRead } from "../../server/engine/preparedRead";
import { domainModules } from "../../server/domain/modules";
import type { DomainModule } from "../../server/engine/types";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";
import { otherOperatorSeed } from "../support/fixtures";
import type { DynamicSelect } from "../support/dynamicSelect";
import { openTestDatabase } from "../support/testDatabase";

// The read of one record built once with placeholders (server/engine/preparedRead.ts) answers what
// the query built per request answers, for every role and scope; a module whose scope computes with
// the principal's values instead of passing them to SQL is never prepared (it would be wrong).

let database: Database;
let alexLine: string;
let otherOperatorLine: string;

beforeAll(async () => {
  database = await openTestDatabase();
  const secrets = createSecretBox(LOCAL_SECRETS_KEY);
  await seedOperator(database.db, attSeed, secrets);
  await seedOperator(database.db, otherOperatorSeed, secrets);
  const [alex] = await database.db
    .select({ id: lines.id })
    .from(lines)
    .innerJoin(accounts, eq(lines.accountId, accounts.id))
    .where(eq(accounts.ownerUid, "demo-alex"))
    .limit(1);
  const [other] = await database.db
    .select({ id: lines.id })
    .from(lines)
    .where(eq(lines.operatorCode, otherOperatorSeed.code))
    .limit(1);
  alexLine = alex!.id;
  otherOperatorLine = other!.id;
});

afterAll(async () => {
  await database?.close();
});

/** The query as the engine builds it per request. */
async function builtPerRequest(
  module: DomainModule,
  principal: { role: "subscriber" | "agent" | "admin"; operator: string; uid: string },
  scope: "all" | "own",
  id: string,
) {
  const [row] = await (module.source.rows(database.db) as DynamicSelect)
    .where(and(module.source.scope(principal, scope), eq(module.source.id, id)))
    .limit(1);
  return row ?? null;
}

describe("a read of one record prepared once", () => {
  const cases = [
    {
      who: "alex, own line",
      principal: { role: "subscriber", operator: "ATT", uid: "demo-alex" },
      scope: "own",
      line: () => alexLine,
      found: true,
    },
    {
      who: "sam, alex's line",
      principal: { role: "subscriber", operator: "ATT", uid: "demo-sam" },
      scope: "own",
      line: () => alexLine,
      found: false,
    },
    {
      who: "an agent, alex's line",
      principal: { role: "agent", operator: "ATT", uid: "demo-agent" },
      scope: "all",
      line: () => alexLine,
      found: true,
    },
    {
      who: "an agent, another operator's line",
      principal: { role: "agent", operator: "ATT", uid: "demo-agent" },
      scope: "all",
      line: () => otherOperatorLine,
      found: false,
    },
  ] as const;

  for (const c of cases) {
    it(`answers as the query built per request: ${c.who}`, async () => {
      const prepared = preparedRead(database.db, linesModule, c.principal.role, c.scope);
      expect(prepared?.via).toBe(database.driver === "postgres" ? "pool" : "drizzle");
      const [row] = await prepared!.execute({ operator: c.principal.operator, uid: c.principal.uid, id: c.line() });
      expect(row ?? null).toEqual(await builtPerRequest(linesModule, c.principal, c.scope, c.line()));
      expect(Boolean(row)).toBe(c.found);
    });
  }

  it("answers as the query built per request for every module's records (dates, JSON, numbers, expressions)", async () => {
    const admin = { role: "admin", operator: "ATT", uid: "demo-admin" } as const;
    let compared = 0;
    const via = { pool: 0, drizzle: 0 };
    const throughDrizzle: string[] = [];
    for (const [name, module] of Object.entries(domainModules)) {
      const prepared = preparedRead(database.db, module, admin.role, "all");
      if (!prepared) continue;
      via[prepared.via] += 1;
      if (prepared.via === "drizzle") throughDrizzle.push(name);
      const idColumn = module.source.id as PgColumn;
      const ids = await database.db.select({ id: idColumn }).from(idColumn.table).limit(3);
      for (const { id } of ids) {
        const [row] = await prepared.execute({ operator: admin.operator, uid: admin.uid, id: String(id) });
        const expected = await builtPerRequest(module, admin, "all", String(id));
        expect(row ?? null, `${name} ${String(id)}`).toEqual(expected);
        if (expected) compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(20);
    // On PostgreSQL the reads go to node-postgres's pool with their decoders looked up once, so this
    // test compares that path with drizzle's; only a selection that nests a table (a bill's) stays
    // with drizzle there. PGlite always goes through drizzle.
    if (database.driver === "postgres") {
      expect(throughDrizzle).toEqual(["invoices"]);
      expect(via.pool).toBeGreaterThan(15);
    } else expect(via.pool).toBe(0);
    expect(via.pool + via.drizzle).toBeGreaterThan(10);
  });

  it("is not prepared when the scope computes with the principal's values", () => {
    const computing: DomainModule = {
      ...linesModule,
      source: { ...linesModule.source, scope: (principal) => eq(lines.operatorCode, principal.operator.toUpperCase()) },
    };
    const interpolating: DomainModule = {
      ...linesModule,
      source: { ...linesModule.source, scope: (principal) => eq(accounts.ownerUid, `demo-${principal.uid}`) },
    };
    const inlined: DomainModule = {
      ...linesModule,
      source: {
        ...linesModule.source,
        scope: (principal) =>
          sql`${lines.operatorCode} = ${sql.raw(`'${String(principal.operator).replace(/'/g, "")}'`)}`,
      },
    };
    for (const module of [computing, interpolating, inlined])
      expect(preparedRead(database.db, module, "subscriber", "own")).toBeNull();
  });
});
