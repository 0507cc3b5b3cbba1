import { FirebaseError } from "firebase/app";
import { describe, expect, it } from "vitest";
import { en, type MessageKey } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { authErrorMessage } from "../../src/providers/authErrors";

/** A firebase/auth rejection as the SDK throws it. */
const firebaseError = (code: string) => new FirebaseError(code, `Firebase: Error (${code}).`);

describe("authErrorMessage", () => {
  it.each(["auth/invalid-credential", "auth/invalid-login-credentials", "auth/wrong-password", "auth/user-not-found"])(
    "%s is the one invalid-credential message, on no field (never tells which of the two was wrong)",
    (code) => {
      expect(authErrorMessage(firebaseError(code))).toEqual({ key: "signIn.errors.invalidCredential" });
      expect(authErrorMessage({ code })).toEqual({ key: "signIn.errors.invalidCredential" });
    },
  );

  it("auth/invalid-email belongs to the email field", () => {
    expect(authErrorMessage(firebaseError("auth/invalid-email"))).toEqual({
      field: "email",
      key: "signIn.errors.emailInvalid",
    });
  });

  it("missing email and password belong to their fields", () => {
    expect(authErrorMessage(firebaseError("auth/missing-email"))).toEqual({
      field: "email",
      key: "signIn.errors.emailRequired",
    });
    expect(authErrorMessage(firebaseError("auth/missing-password"))).toEqual({
      field: "password",
      key: "signIn.errors.passwordRequired",
    });
  });

  it("rate limiting, disabled accounts and network failures have their own messages", () => {
    expect(authErrorMessage(firebaseError("auth/too-many-requests"))).toEqual({ key: "signIn.errors.tooManyRequests" });
    expect(authErrorMessage(firebaseError("auth/user-disabled"))).toEqual({ key: "signIn.errors.userDisabled" });
    expect(authErrorMessage(firebaseError("auth/network-request-failed"))).toEqual({ key: "signIn.errors.network" });
    expect(authErrorMessage(firebaseError("auth/timeout"))).toEqual({ key: "signIn.errors.network" });
  });

  it("a disabled sign-in method says to use another one", () => {
    expect(authErrorMessage(firebaseError("auth/operation-not-allowed"))).toEqual({
      key: "auth.errors.methodDisabled",
    });
  });

  it.each(["auth/internal-error", "auth/some-future-code", "", "invalid-credential"])(
    "an unknown code (%j) is the generic message",
    (code) => {
      expect(authErrorMessage(firebaseError(code))).toEqual({ key: "signIn.errors.generic" });
    },
  );

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "auth/invalid-credential"],
    ["a number", 401],
    ["a plain Error", new Error("auth/invalid-credential")],
    ["an object with a non-string code", { code: 42 }],
    ["an empty object", {}],
  ])("%s is the generic message", (_, value) => {
    expect(authErrorMessage(value)).toEqual({ key: "signIn.errors.generic" });
  });

  it("the text of every key it returns is a translated sentence that never shows an auth/ code", () => {
    const inputs: unknown[] = [
      ...[
        "auth/invalid-email",
        "auth/missing-email",
        "auth/missing-password",
        "auth/invalid-credential",
        "auth/invalid-login-credentials",
        "auth/wrong-password",
        "auth/user-not-found",
        "auth/too-many-requests",
        "auth/user-disabled",
        "auth/network-request-failed",
        "auth/timeout",
        "auth/internal-error",
        "auth/operation-not-allowed",
        "auth/unknown",
      ].map(firebaseError),
      null,
      undefined,
      "auth/invalid-credential",
      new Error("boom"),
    ];
    const keys = new Set(inputs.map((input) => authErrorMessage(input).key));
    expect(keys.size).toBeGreaterThanOrEqual(7);
    for (const key of keys) {
      for (const [locale, dictionary] of [
        ["en", en],
        ["es", es],
      ] as const) {
        const text = (dictionary as Record<MessageKey, string>)[key];
        expect(text, `${locale} ${key}`).toBeTypeOf("string");
        expect(text.trim(), `${locale} ${key}`).not.toBe("");
        expect(text, `${locale} ${key}`).not.toContain("auth/");
      }
    }
  });

  // The code comes from outside; a code that names a member of Object.prototype is an unknown code too.
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])("the code %j is the generic message", (code) => {
    expect(authErrorMessage({ code })).toEqual({ key: "signIn.errors.generic" });
  });

  it("a field, when given, is email or password", () => {
    for (const code of [
      "auth/invalid-email",
      "auth/missing-email",
      "auth/missing-password",
      "auth/user-not-found",
      "auth/other",
    ]) {
      const { field } = authErrorMessage(firebaseError(code));
      expect([undefined, "email", "password"]).toContain(field);
    }
  });
});
