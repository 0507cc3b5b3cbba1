import { and, eq } from "drizzle-orm";
import type { CarePinState } from "#resources/carePin";
import type { Role } from "#resources/define";
import { recordAudit, type Executor } from "../../audit";
import type { Db } from "../../db/client";
import { carePins } from "../../db/schema";
import { hashSecret, verifySecret } from "../../lib/secretBox";

/**
 * A subscriber's care PIN, keyed by (operator, uid): stored as a salted scrypt hash, compared in
 * constant time, never logged, returned or audited. Setting it is `saveCarePin` (the caller checks
 * the PIN's rules and the recent sign-in); caller verification (issue 27 item 2) uses `checkCarePin`.
 */

const keyOf = (operator: string, uid: string) => and(eq(carePins.operatorCode, operator), eq(carePins.uid, uid));

/** Whether the person has a PIN and when it was last set. */
export async function carePinState(db: Executor, operator: string, uid: string): Promise<CarePinState> {
  const [row] = await db.select({ updatedAt: carePins.updatedAt }).from(carePins).where(keyOf(operator, uid));
  return { set: Boolean(row), updatedAt: row ? row.updatedAt.toISOString() : null };
}

export interface PinSetter {
  operator: string;
  uid: string;
  role: Role;
  requestId: string;
}

/**
 * Sets or replaces the person's PIN and audits it as `care-pin.set` (the first) or `care-pin.change`,
 * with only whether one was set before: never the PIN nor its hash.
 */
export async function saveCarePin(db: Db, who: PinSetter, pin: string): Promise<CarePinState> {
  // scrypt takes tens of milliseconds: hashed before the transaction, so no lock waits on it.
  const pinHash = await hashSecret(pin);
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ uid: carePins.uid })
      .from(carePins)
      .where(keyOf(who.operator, who.uid))
      .for("update");
    const now = new Date();
    const [row] = await tx
      .insert(carePins)
      .values({ operatorCode: who.operator, uid: who.uid, pinHash, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [carePins.operatorCode, carePins.uid], set: { pinHash, updatedAt: now } })
      .returning({ updatedAt: carePins.updatedAt });
    await recordAudit(tx, {
      operator: who.operator,
      actorUid: who.uid,
      actorRole: who.role,
      action: before ? "care-pin.change" : "care-pin.set",
      targetType: "user",
      targetId: who.uid,
      before: { set: Boolean(before) },
      after: { set: true },
      requestId: who.requestId,
    });
    return { set: true, updatedAt: row!.updatedAt.toISOString() };
  });
}

/** Whether a PIN a caller gave is the person's: "not-set" when they have none (nothing to compare). */
export async function checkCarePin(
  db: Executor,
  operator: string,
  uid: string,
  pin: string,
): Promise<"match" | "mismatch" | "not-set"> {
  const [row] = await db.select({ pinHash: carePins.pinHash }).from(carePins).where(keyOf(operator, uid));
  if (!row) return "not-set";
  return (await verifySecret(pin, row.pinHash)) ? "match" : "mismatch";
}
