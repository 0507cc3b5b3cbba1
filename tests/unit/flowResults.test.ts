import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { failure } from "../../src/providers/flowResults";

afterEach(() => setLocale("en"));

describe("failure", () => {
  it("a backend rate limit tells how long to wait, at the phone field", () => {
    expect(failure({ statusCode: 429, message: "Too Many Requests", retryAfter: 42 })).toEqual({
      ok: false,
      field: "phone",
      message: "Too many codes requested. Try again in 42 seconds.",
      retryAfter: 42,
    });
  });

  it("the wait is translated", () => {
    setLocale("es");
    expect(failure({ statusCode: 429, retryAfter: 5 }).message).toBe(
      "Se pidieron demasiados códigos. Inténtalo de nuevo en 5 segundos.",
    );
  });

  it("another backend problem keeps its detail, for the whole form", () => {
    expect(failure({ statusCode: 409, message: "This account is staff." })).toEqual({
      ok: false,
      field: "form",
      message: "This account is staff.",
    });
  });

  it("a Firebase error becomes its message at its field, never the raw code", () => {
    const result = failure(
      Object.assign(new Error("Firebase: Error (auth/invalid-verification-code)."), {
        code: "auth/invalid-verification-code",
      }),
    );
    expect(result).toEqual({
      ok: false,
      field: "code",
      message: "That code is not right. Check the text message and try again.",
    });
  });

  it("anything else is the generic message for the form", () => {
    expect(failure(new Error("boom"))).toEqual({
      ok: false,
      field: "form",
      message: "Sign-in did not work. Try again in a moment.",
    });
  });
});
