import { afterEach, expect, test, vi } from "vitest";
import { logSender } from "../../server/domain/outbox/deliver";

// The local outbox writes each message to the log (issue 26): never a recipient's address or number,
// nor a number the message itself names.

afterEach(() => vi.restoreAllMocks());

function logged(message: { channel: "sms" | "email"; recipient: string }, body: string, subject: string | null = null) {
  const info = vi.spyOn(console, "info").mockImplementation(() => {});
  void logSender({ ...message, locale: "en" } as Parameters<typeof logSender>[0], { subject, body });
  return String(info.mock.calls[0]?.[0]);
}

test("an SMS's recipient and the numbers in its text show as their last 4 digits", () => {
  const line = logged(
    { channel: "sms", recipient: "+12025550101" },
    "+12025550188 moved to us. Call (202) 555-0103 or 202-555-0104. Code 123456, $25.00 on 2026-11-28.",
  );
  expect(line).toBe(
    "[outbox] sms to •••0101 (en): •••0188 moved to us. Call •••0103 or •••0104. Code 123456, $25.00 on 2026-11-28.",
  );
});

test("an email's recipient shows as its first letter and domain, and a link's token stays whole", () => {
  const line = logged(
    { channel: "email", recipient: "alex@example.com" },
    "Not you? Open /this-wasnt-me#4u1Mq4VwJT3_Skl_d7elDResyo1qy4tkA804OLx1x5E",
    "Security alert",
  );
  expect(line).toBe(
    '[outbox] email to a•••@example.com (en): "Security alert" Not you? Open /this-wasnt-me#4u1Mq4VwJT3_Skl_d7elDResyo1qy4tkA804OLx1x5E',
  );
});
