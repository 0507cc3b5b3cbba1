import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "../../server/payments/webhookSignature";
import { behaviourOf, brandOf, luhnValid, SANDBOX_CARDS } from "../../server/payments/sandbox/cards";

describe("gateway webhook signatures", () => {
  const body = JSON.stringify({ id: "evt_1", type: "charge.succeeded" });
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const t = now / 1000;

  it("accepts its own signature within the tolerance", () => {
    expect(verifyWebhook("secret-1234567890", body, signWebhook("secret-1234567890", body, t), now)).toEqual({
      ok: true,
    });
    expect(verifyWebhook("secret-1234567890", body, signWebhook("secret-1234567890", body, t - 299), now)).toEqual({
      ok: true,
    });
  });

  it("refuses a missing, malformed, old, future, wrong-secret or other-body signature", () => {
    expect(verifyWebhook("s", body, undefined, now)).toEqual({ ok: false, why: "missing" });
    expect(verifyWebhook("s", body, "v1=abc", now)).toEqual({ ok: false, why: "malformed" });
    expect(verifyWebhook("s", body, signWebhook("s", body, t - 301), now)).toEqual({ ok: false, why: "too_old" });
    expect(verifyWebhook("s", body, signWebhook("s", body, t + 301), now)).toEqual({ ok: false, why: "too_old" });
    expect(verifyWebhook("s", body, signWebhook("other", body, t), now)).toEqual({ ok: false, why: "mismatch" });
    expect(verifyWebhook("s", `${body} `, signWebhook("s", body, t), now)).toEqual({ ok: false, why: "mismatch" });
  });
});

describe("the sandbox's test cards", () => {
  it("are valid numbers with their documented behaviour", () => {
    for (const number of Object.values(SANDBOX_CARDS)) expect(luhnValid(number), number).toBe(true);
    expect(behaviourOf(SANDBOX_CARDS.succeeds)).toBe("succeeds");
    expect(behaviourOf(SANDBOX_CARDS.declined)).toBe("declined");
    expect(behaviourOf(SANDBOX_CARDS.timesOut)).toBe("timesOut");
    expect(brandOf(SANDBOX_CARDS.succeeds)).toBe("visa");
    expect(luhnValid("4242424242424241")).toBe(false);
  });
});
