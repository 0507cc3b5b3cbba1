import { describe, expect, it } from "vitest";
import { identityChangesOf, maskPhone, type IdentityFacts } from "../../server/domain/identityEvents/changes";
import { maskEmail } from "../../server/lib/masks";
import { auditRowsOf, type IdentityObservation } from "../../server/domain/identityEvents/observer";

const facts = (over: Partial<IdentityFacts> = {}): IdentityFacts => ({
  email: "sam@example.com",
  phone: null,
  providers: ["password"],
  mfaFactors: [],
  ...over,
});
const factor = { uid: "f1", factorId: "phone", phoneLast4: "0199" };

describe("identityChangesOf", () => {
  it("nothing changed: no changes", () => {
    expect(identityChangesOf(facts(), facts())).toEqual([]);
  });

  it("an email change keeps the address before it (where an alert must go); case alone is no change", () => {
    expect(identityChangesOf(facts(), facts({ email: "thief@example.net" }))).toEqual([
      { kind: "email-change", before: "sam@example.com", after: "thief@example.net" },
    ]);
    expect(identityChangesOf(facts(), facts({ email: "Sam@Example.com" }))).toEqual([]);
  });

  it("a phone linked or unlinked as a sign-in method is that, not a phone change; a new number is", () => {
    const withPhone = facts({ phone: "+12025550103", providers: ["password", "phone"] });
    expect(identityChangesOf(facts(), withPhone)).toEqual([{ kind: "sign-in-method", before: null, after: "phone" }]);
    expect(identityChangesOf(withPhone, facts())).toEqual([{ kind: "sign-in-method", before: "phone", after: null }]);
    expect(identityChangesOf(withPhone, { ...withPhone, phone: "+12025550999" })).toEqual([
      { kind: "phone-change", before: "+12025550103", after: "+12025550999" },
    ]);
  });

  it("an email that came with a newly linked method is no email change; one replaced while linking is", () => {
    const phoneOnly = facts({ email: null, phone: "+12025550103", providers: ["phone"] });
    const linked = { ...phoneOnly, email: "new@example.com", providers: ["password", "phone"] };
    expect(identityChangesOf(phoneOnly, linked)).toEqual([{ kind: "sign-in-method", before: null, after: "password" }]);
    expect(
      identityChangesOf(facts(), facts({ email: "x@example.com", providers: ["google.com", "password"] })),
    ).toEqual([
      { kind: "sign-in-method", before: null, after: "google.com" },
      { kind: "email-change", before: "sam@example.com", after: "x@example.com" },
    ]);
  });

  it("second factors enrolled and removed, one change each", () => {
    const other = { uid: "f2", factorId: "phone", phoneLast4: "0200" };
    expect(identityChangesOf(facts({ mfaFactors: [factor] }), facts({ mfaFactors: [other] }))).toEqual([
      { kind: "mfa-change", before: null, after: other },
      { kind: "mfa-change", before: factor, after: null },
    ]);
  });
});

describe("auditRowsOf", () => {
  const observation = (over: Partial<IdentityObservation>): IdentityObservation => ({
    operator: "ATT",
    uid: "u1",
    role: "subscriber",
    requestId: "r1",
    contactsBefore: { email: "sam@example.com", phone: "+12025550103" },
    contactsAfter: { email: "thief@example.net", phone: null },
    signIn: null,
    changes: [],
    ...over,
  });

  it("each fact a row of the user with its source, personal data masked", () => {
    const rows = auditRowsOf(
      observation({
        signIn: { authTime: 1_800_000_000, method: "password", secondFactor: "phone" },
        changes: [
          { kind: "email-change", before: "sam@example.com", after: "thief@example.net" },
          { kind: "sign-in-method", before: "phone", after: null },
          { kind: "mfa-change", before: null, after: factor },
        ],
      }),
    );
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      [
        "identity.signed_in",
        null,
        {
          source: "id-token",
          method: "password",
          secondFactor: "phone",
          signedInAt: new Date(1_800_000_000_000).toISOString(),
        },
      ],
      [
        "identity.email_changed",
        { email: "s•••@example.com" },
        { email: "t•••@example.net", source: "admin-user-record" },
      ],
      ["identity.unlinked", { providerId: "phone", phone: "•••• 0103" }, { source: "admin-user-record" }],
      ["mfa.enrolled", null, { factor: "phone", phone: "•••• 0199", source: "admin-user-record" }],
    ]);
    expect(rows.every((r) => r.targetType === "user" && r.targetId === "u1" && r.actorUid === "u1")).toBe(true);
  });

  it("masks", () => {
    expect(maskEmail("alex@example.com")).toBe("a•••@example.com");
    expect(maskEmail(null)).toBeNull();
    expect(maskPhone("+12025550101")).toBe("•••• 0101");
  });
});
