import type { UserRecord } from "firebase-admin/auth";
import type { SnapshotFactor } from "../../db/schema";

/**
 * A user's identity as the Admin SDK's user record states it: the facts whose changes are audited
 * (issue 27 item 4) and alerted on (item 5). Email and phone in full; second factors by their last 4.
 */
export interface IdentityFacts {
  email: string | null;
  phone: string | null;
  /** Provider ids, sorted; "phone" whenever the account has a phone number (as GET /me lists them). */
  providers: string[];
  mfaFactors: SnapshotFactor[];
}

/**
 * One change between two snapshots of a user's identity. A sign-in method or second factor added
 * has `before: null`, one removed `after: null`. `before` of an email or phone change is the
 * contact point the account had before it: where a fraud alert must go.
 */
export type IdentityChange =
  | { kind: "email-change"; before: string | null; after: string | null }
  | { kind: "phone-change"; before: string | null; after: string | null }
  | { kind: "sign-in-method"; before: string | null; after: string | null }
  | { kind: "mfa-change"; before: SnapshotFactor | null; after: SnapshotFactor | null };

/** The facts of a firebase-admin user record. */
export function factsOfUserRecord(record: UserRecord): IdentityFacts {
  const phone = record.phoneNumber ?? null;
  const providers = new Set(record.providerData.map((p) => p.providerId));
  if (phone) providers.add("phone");
  return {
    email: record.email ?? null,
    phone,
    providers: [...providers].sort(),
    mfaFactors: (record.multiFactor?.enrolledFactors ?? []).map((f) => {
      const number = (f as { phoneNumber?: string }).phoneNumber;
      return { uid: f.uid, factorId: f.factorId, phoneLast4: number ? number.slice(-4) : null };
    }),
  };
}

/**
 * What changed from `before` to `after`: each sign-in method linked or unlinked and each second
 * factor enrolled or removed on its own, then the email and the phone number. A phone number that
 * came or went with the phone sign-in method is that link or unlink, not a phone change; an email
 * that first appeared with a newly linked method came with it.
 */
export function identityChangesOf(before: IdentityFacts, after: IdentityFacts): IdentityChange[] {
  const changes: IdentityChange[] = [];
  const linked = after.providers.filter((p) => !before.providers.includes(p));
  const unlinked = before.providers.filter((p) => !after.providers.includes(p));
  for (const providerId of linked) changes.push({ kind: "sign-in-method", before: null, after: providerId });
  for (const providerId of unlinked) changes.push({ kind: "sign-in-method", before: providerId, after: null });

  const beforeFactors = new Map(before.mfaFactors.map((f) => [f.uid, f]));
  const afterFactors = new Map(after.mfaFactors.map((f) => [f.uid, f]));
  for (const [uid, factor] of afterFactors)
    if (!beforeFactors.has(uid)) changes.push({ kind: "mfa-change", before: null, after: factor });
  for (const [uid, factor] of beforeFactors)
    if (!afterFactors.has(uid)) changes.push({ kind: "mfa-change", before: factor, after: null });

  const emailCameWithMethod = before.email === null && linked.length > 0;
  if (!sameEmail(before.email, after.email) && !emailCameWithMethod)
    changes.push({ kind: "email-change", before: before.email, after: after.email });
  const phoneMethodChanged = linked.includes("phone") || unlinked.includes("phone");
  if (before.phone !== after.phone && !phoneMethodChanged)
    changes.push({ kind: "phone-change", before: before.phone, after: after.phone });
  return changes;
}

const sameEmail = (a: string | null, b: string | null) => (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

/** "•••• 0101", as the portal masks numbers. */
export function maskPhone(phone: string | null): string | null {
  return phone ? `•••• ${phone.slice(-4)}` : null;
}
