import { eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { outboxMessages } from "../../db/schema";
import { messageText, type MessageWords } from "./messageText";
import { lastFourDigits, maskEmail } from "../../lib/masks";

/** The cron job that sends what the outbox holds. */
export const OUTBOX_DELIVERY_JOB = "outbox.deliver";

/** Sends one message: the row (channel, recipient, locale) and its words in that locale. */
export type OutboxSender = (message: typeof outboxMessages.$inferSelect, words: MessageWords) => Promise<void>;

/** A phone number as messages write it: "+12025550101", "(202) 555-0101", "202-555-0101". */
const PHONE_NUMBER = /(?<!\w)(?:\+?1[\s-]?)?\(?\d{3}\)?[\s-]?\d{3}[\s-]?\d{4}(?!\w)/g;

/** Locally nothing leaves the machine: each email or SMS is written to the log, as it would read (no gateway is configured). */
export const logSender: OutboxSender = (message, words) => {
  const subject = words.subject === null ? "" : ` "${words.subject}"`;
  // The log keeps no one's address or number (issue 26): the last 4 digits, or the email's first letter and domain.
  const to = message.channel === "sms" ? lastFourDigits(message.recipient) : maskEmail(message.recipient);
  // Nor the numbers a message names (a ported number, a line): each shows as its last 4 digits.
  const masked = `${subject} ${words.body}`.replace(PHONE_NUMBER, (n) => lastFourDigits(n.replace(/\D/g, "")) ?? "");
  console.info(`[outbox] ${message.channel} to ${to} (${message.locale}):${masked}`);
  return Promise.resolve();
};

/**
 * Sends pending outbox messages, oldest first, a batch per transaction: each row is locked (SKIP
 * LOCKED, so two instances never send one twice) and marked sent in the same transaction as its
 * sending. Returns how many were sent.
 */
export async function deliverOutbox(db: Db, send: OutboxSender = logSender, batch = 100): Promise<number> {
  let sent = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(outboxMessages)
        .where(isNull(outboxMessages.sentAt))
        .orderBy(outboxMessages.createdAt)
        .limit(batch)
        .for("update", { skipLocked: true });
      for (const message of due) {
        await send(message, messageText(message));
        await tx
          .update(outboxMessages)
          .set({ sentAt: sql`now()` })
          .where(eq(outboxMessages.id, message.id));
      }
      return due.length;
    });
    sent += count;
    if (count < batch) return sent;
  }
}
