import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../client";
import { accounts, addOns, lines, numberInventory, operators, plans } from "../schema";
import type { OperatorSeed } from "./demoData";
import { randomDigits, type SecretBox } from "../../lib/secretBox";
import { seedAccountMoney } from "./seedMoney";
import { resources } from "#resources";
import { seedDocuments } from "../../generic/documentSeeds";
import type { DeclaredResource } from "../../lib/declaredResource";

/**
 * Writes an operator, its catalog and its accounts (each SIM with a sealed PUK). Idempotent: plans are keyed by code, accounts
 * by the number of their first line, so running it on every start adds only what is missing.
 */
export async function seedOperator(
  db: Db,
  seed: OperatorSeed,
  secrets: SecretBox,
): Promise<{ accountsCreated: number }> {
  return db.transaction(async (tx) => {
    await tx
      .insert(operators)
      .values({
        code: seed.code,
        name: seed.name,
        currency: seed.currency,
        timezone: seed.timezone,
        settings: { ...seed.settings },
      })
      // Settings the seed adds later reach existing databases; what an admin set stays.
      .onConflictDoUpdate({
        target: operators.code,
        set: { settings: sql`excluded.settings || ${operators.settings}` },
      });
    await tx
      .insert(plans)
      .values(seed.plans.map((p) => ({ ...p, operatorCode: seed.code, currency: seed.currency })))
      // A database seeded before the catalog had Spanish gets it; what an admin translated stays.
      .onConflictDoUpdate({
        target: [plans.operatorCode, plans.code],
        set: { translations: sql`excluded.translations` },
        setWhere: sql`${plans.translations} = '{}'::jsonb`,
      });
    if (seed.addOns?.length) {
      await tx
        .insert(addOns)
        .values(seed.addOns.map((a) => ({ ...a, operatorCode: seed.code, currency: seed.currency })))
        .onConflictDoUpdate({
          target: [addOns.operatorCode, addOns.code],
          set: { translations: sql`excluded.translations` },
          setWhere: sql`${addOns.translations} = '{}'::jsonb`,
        });
    }
    // The number inventory: free numbers new lines pick from; a number already there keeps its state.
    const numbers = (seed.numbers ?? []).flatMap(({ areaCode, from, to }) =>
      Array.from({ length: to - from + 1 }, (_, i) => ({
        operatorCode: seed.code,
        msisdn: `+1${areaCode}${from + i}`,
        areaCode,
      })),
    );
    if (numbers.length) await tx.insert(numberInventory).values(numbers).onConflictDoNothing();
    const planRows = await tx
      .select({ id: plans.id, code: plans.code, name: plans.name, priceAmount: plans.priceAmount })
      .from(plans)
      .where(eq(plans.operatorCode, seed.code));
    const planIdByCode = new Map(planRows.map((p) => [p.code, p.id]));
    const planByCode = new Map(planRows.map((p) => [p.code, p]));

    const firstNumbers = seed.accounts.map((a) => a.lines[0]!.msisdn);
    const existing = await tx
      .select({ msisdn: lines.msisdn })
      .from(lines)
      .where(and(eq(lines.operatorCode, seed.code), inArray(lines.msisdn, firstNumbers)));
    // A first number that left its line (changed, or cancelled and released) rests in the inventory: seeded already.
    const released = await tx
      .select({ msisdn: numberInventory.msisdn })
      .from(numberInventory)
      .where(and(eq(numberInventory.operatorCode, seed.code), inArray(numberInventory.msisdn, firstNumbers)));
    const present = new Set([...existing, ...released].map((l) => l.msisdn));

    let accountsCreated = 0;
    for (const account of seed.accounts) {
      if (present.has(account.lines[0]!.msisdn)) continue;
      const [row] = await tx
        .insert(accounts)
        .values({
          operatorCode: seed.code,
          ownerUid: account.ownerUid,
          name: account.name,
          email: account.email,
          phone: account.phone,
          type: account.type,
        })
        .returning({ id: accounts.id });
      await tx.insert(lines).values(
        account.lines.map((l) => {
          const planId = planIdByCode.get(l.planCode);
          if (!planId) throw new Error(`Seed line ${l.msisdn} names unknown plan ${l.planCode}`);
          // Every SIM comes with a PUK; the seed makes one up and seals it like any other.
          return {
            ...l,
            suspendReason: l.suspendReason ?? null,
            operatorCode: seed.code,
            accountId: row!.id,
            planId,
            pukCipher: secrets.seal(randomDigits(8)),
          };
        }),
      );
      await seedAccountMoney(tx, seed, account, row!.id, planByCode.get(account.lines[0]!.planCode)!);
      accountsCreated++;
    }
    // Declared first records (a rate table's rates) for this operator, as start-up writes them for existing ones.
    for (const resource of resources as readonly DeclaredResource[]) await seedDocuments(tx, resource, [seed.code]);
    return { accountsCreated };
  });
}
