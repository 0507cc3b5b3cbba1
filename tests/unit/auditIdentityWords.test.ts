import { describe, expect, it } from "vitest";
import { actionText, fieldChanges } from "../../src/components/auditWords";
import { setLocale } from "../../src/i18n";

// Identity events recorded by the server (server/domain/identityEvents) read as words in the viewer.
describe("identity events in words", () => {
  it("a sign-in: the method, the second step, the time and where the fact came from", () => {
    expect(actionText("identity.signed_in")).toBe("Signed in");
    const changes = fieldChanges({
      targetType: "user",
      before: null,
      after: { source: "id-token", method: "password", secondFactor: "phone", signedInAt: "2026-11-28T11:54:07.000Z" },
    });
    expect(changes.map((c) => [c.label, c.after])).toEqual([
      ["Recorded from", "The sign-in token"],
      ["Signed in with", "Email and password"],
      ["Second step", "Phone (SMS code)"],
      ["Signed in at", expect.stringMatching(/2026/)],
    ]);
    expect(changes.find((c) => c.field === "signedInAt")?.after).not.toContain("T11:54");
  });

  it("a removed sign-in method, an email change; unknown values stay as they are", () => {
    expect(
      fieldChanges({
        targetType: "user",
        before: { providerId: "google.com" },
        after: { source: "admin-user-record" },
      }).map((c) => [c.label, c.before, c.after]),
    ).toEqual([
      ["Sign-in method", "Google", "—"],
      ["Recorded from", "—", "The account at the identity provider"],
    ]);
    expect(actionText("identity.email_changed")).toBe("Changed their email");
    expect(fieldChanges({ targetType: "user", before: null, after: { method: "saml.corp" } })[0]?.after).toBe(
      "saml.corp",
    );
  });
});

// A caller's verification (issue 27) reads as what care did: how the caller proved who they are (not
// "Signed in with"), until when, in words and times, in English and Spanish.
describe("caller verification in words", () => {
  const verified = {
    action: "caller-verification.verified",
    targetType: "user",
    before: null,
    after: { method: "sms-code", agentUid: "demo-agent", until: "2026-12-01T07:47:22.633Z" },
  };

  it("names the action, the way and the time", () => {
    expect(actionText("caller-verification.verified")).toBe("Verified the caller");
    expect(actionText("caller-verification.code-sent")).toBe("Sent the caller a code");
    const changes = fieldChanges(verified);
    expect(changes.map((c) => [c.label, c.after])).toEqual([
      ["Verified by", "Code by SMS"],
      ["Agent", "demo-agent"],
      ["Until", expect.stringMatching(/2026/)],
    ]);
    expect(changes.find((c) => c.field === "until")?.after).not.toContain("T07:47");
  });

  it("in Spanish", () => {
    setLocale("es", { remember: false });
    try {
      expect(actionText("caller-verification.verified")).toBe("Verificó a quien llama");
      expect(fieldChanges(verified)[0]).toMatchObject({ label: "Verificado con", after: "Código por SMS" });
    } finally {
      setLocale("en", { remember: false });
    }
  });
});
