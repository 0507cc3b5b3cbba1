import { createHash, randomInt } from "node:crypto";
import { and, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import { voucherBatches, vouchers } from "../../db/schema";
import { ProblemError } from "../../errors";
import { words } from "../../i18n/words";
import type { ActionHandler } from "../../engine/types";
import { postLedgerEntry } from "./ledger";

/** Letters and digits nobody misreads (no 0/O, 1/I/L): 31 symbols, 16 of them ≈ 79 bits per code. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const CODE_LENGTH = 16;

/** A new code as printed: four groups of four ("7KQM-2XHD-9RTW-4PNB"). */
export function newVoucherCode(): string {
  const symbols = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return [0, 4, 8, 12].map((at) => symbols.slice(at, at + 4).join("")).join("-");
}

/** The code as typed, any case, with or without dashes and spaces, to the form that is hashed. */
export const normalizeVoucherCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

/** Codes are kept only as SHA-256 of their normal form (79 random bits: a hash cannot be walked back). */
export const hashVoucherCode = (code: string) => createHash("sha256").update(normalizeVoucherCode(code)).digest("hex");

/** The one answer for a code that is unknown, used, expired or another operator's: no oracle. */
export const VOUCHER_REFUSED_TYPE = "/problems/voucher-not-redeemable";
const refused = () =>
  new ProblemError(
    422,
    words("money.voucherRefused"),
    [{ path: "code", message: words("money.voucherRefusedField") }],
    VOUCHER_REFUSED_TYPE,
  );

const failuresOf = (accountId: string) => ({
  limit: "voucherFailuresPerAccount" as const,
  key: accountId,
  detail: words("money.voucherTooManyFailures"),
});

type AccountRowLike = { id: string; ownerUid: string | null; currency: string };

/**
 * Credits a prepaid balance with a voucher, once: the UPDATE that marks it redeemed only matches an
 * unused, unexpired voucher of the operator, so two accounts racing for one code cannot both win.
 * Failures count per account; the sixth attempt within 15 minutes is 429 with Retry-After.
 */
export const redeemVoucher: ActionHandler<AccountRowLike, { code: string }> = {
  async before({ services, recordId }) {
    await services.limiter.enforce([failuresOf(recordId)], { record: false });
  },
  async failed({ services, recordId }, error) {
    if (error instanceof ProblemError && error.type === VOUCHER_REFUSED_TYPE)
      await services.limiter.take([failuresOf(recordId)]);
  },
  async run(ctx) {
    const today = new Date().toISOString().slice(0, 10);
    const [voucher] = await ctx.tx
      .update(vouchers)
      .set({ status: "redeemed", redeemedAt: new Date(), redeemedAccountId: ctx.row.id })
      .where(
        and(
          eq(vouchers.codeHash, hashVoucherCode(ctx.input.code)),
          eq(vouchers.operatorCode, ctx.principal.operator),
          eq(vouchers.status, "unused"),
          sql`exists (select 1 from ${voucherBatches} where ${voucherBatches.id} = ${vouchers.batchId} and ${gte(voucherBatches.expiresOn, today)})`,
        ),
      )
      .returning({ id: vouchers.id, batchId: vouchers.batchId });
    if (!voucher) throw refused();
    const [batch] = await ctx.tx.select().from(voucherBatches).where(eq(voucherBatches.id, voucher.batchId));
    const { balance } = await postLedgerEntry(
      ctx.tx,
      {
        operatorCode: ctx.principal.operator,
        accountId: ctx.row.id,
        kind: "top_up",
        amount: batch!.valueAmount,
        currency: batch!.currency,
        reason: "Voucher top-up",
        actorUid: ctx.principal.uid,
        actorRole: ctx.principal.role,
        // One credit per voucher, whatever else happens: the ledger's own unique key.
        idempotencyKey: `voucher:${voucher.id}`,
        reference: { type: "voucher", id: voucher.id },
      },
      (event) => ctx.effects.publish(event),
    );
    ctx.effects.publish({
      resource: "ledger-entries",
      type: "created",
      ids: [ctx.row.id],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "money.voucher_redeemed",
        params: {
          amount: batch!.valueAmount,
          balance: balance?.amount ?? null,
          currency: batch!.currency,
          byRole: ctx.principal.role,
        },
        link: null,
      });
    }
  },
};

/** Generates a batch: the codes (returned once) and their hashes (kept). Retries on the astronomically rare hash collision. */
export async function createVoucherBatch(
  tx: Executor,
  batch: {
    operatorCode: string;
    count: number;
    valueAmount: number;
    currency: string;
    expiresOn: string;
    createdBy: string;
  },
): Promise<{ id: string; codes: string[] }> {
  const [row] = await tx.insert(voucherBatches).values(batch).returning({ id: voucherBatches.id });
  const codes = new Set<string>();
  while (codes.size < batch.count) codes.add(newVoucherCode());
  await tx.insert(vouchers).values(
    [...codes].map((code) => ({
      batchId: row!.id,
      operatorCode: batch.operatorCode,
      codeHash: hashVoucherCode(code),
    })),
  );
  return { id: row!.id, codes: [...codes] };
}
