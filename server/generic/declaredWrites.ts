import { and, eq } from "drizzle-orm";
import { translateTo } from "#i18n/dictionaries";
import type { Principal } from "#resources/access";
import type { Money } from "#resources/common";
import {
  computedValues,
  declaredExpressions,
  failedChecks,
  initialValues,
  todayUtc,
  type CompiledEffect,
  type ExpressionContext,
} from "#resources/expressions/declaration";
import { evaluateExpression } from "#resources/expressions/index";
import { linesResource } from "#resources/lines";
import type { Executor } from "../audit";
import { lines, operators } from "../db/schema";
import { badRequest, notFound, type FieldError } from "../errors";
import { notValid } from "../lib/listedText";
import { postLedgerEntry } from "../domain/money/ledger";
import type { Effects } from "../engine/effects";
import { noSuchRecord } from "../engine/refusals";
import type { DeclaredResource } from "../lib/declaredResource";
import { loadRates } from "./rateTables";

/** Who acts, today, the operator's currency and its rates: what a declaration's expressions read on the server. */
export async function expressionContext(
  tx: Executor,
  principal: Principal | null,
  operator: string,
): Promise<ExpressionContext> {
  const [found] = await tx.select({ currency: operators.currency }).from(operators).where(eq(operators.code, operator));
  if (!found) throw new Error(`operator ${operator} does not exist`);
  return {
    role: principal?.role ?? "system",
    today: todayUtc(),
    currency: found.currency,
    rate: await loadRates(tx, operator),
  };
}

/** Each failed check as a field error, worded from the declaration's message in the reader's language. */
const checkErrors = (failed: { field: string; message: string }[]): FieldError[] =>
  failed.map(({ field, message }) => ({ path: field, message: (locale) => translateTo(locale, message) }));

/** 400 naming each field whose declared check these values fail; nothing is written. */
export function refuseFailedChecks(
  resource: DeclaredResource,
  record: Record<string, unknown>,
  ctx: ExpressionContext,
) {
  const errors = checkErrors(failedChecks(resource, record, ctx));
  if (errors.length) throw badRequest(notValid("body", errors), errors);
}

/**
 * A new record's stored data (defaults, what was sent, the computed fields kept from creation: a price
 * read from a rate table) and the record as it will read (with the fields computed on every read),
 * refused at the field when a declared check fails.
 */
export function newRecord(resource: DeclaredResource, body: Record<string, unknown>, ctx: ExpressionContext) {
  const data: Record<string, unknown> = { ...initialValues(resource, ctx), ...body };
  const read = computedValues(resource, data, ctx, "read");
  Object.assign(data, computedValues(resource, { ...data, ...read }, ctx, "stored"));
  const record = { ...data, ...read };
  refuseFailedChecks(resource, record, ctx);
  return { data, record };
}

/** A record's numbers and days, as the words of a quote line, a ledger reason or a notice may name them ("7 days from Dec 1"). */
export const lineParams = (resource: DeclaredResource, record: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(record).filter(
      ([field, value]) =>
        typeof value === "number" || (resource.fields[field]?.kind === "date" && typeof value === "string"),
    ),
  ) as Record<string, string | number>;

/** The money an effect moves for this record: whole minor units, or nothing when it comes to zero or less. */
function amountOf(effect: CompiledEffect, record: Record<string, unknown>, ctx: ExpressionContext): Money | null {
  if (effect.kind === "notify") return null;
  const money = evaluateExpression(effect.amount, {
    record,
    today: ctx.today,
    role: ctx.role,
    currency: ctx.currency,
    rate: ctx.rate,
  }) as Money | null;
  return money && money.amount > 0 ? money : null;
}

/**
 * The quote of effects (a create's or an action's): a line per charge or refund (refunds negative),
 * and the total. The same amounts the effects then move, from the same expressions.
 */
export function quoteOfEffects(
  resource: DeclaredResource,
  effects: readonly CompiledEffect[],
  record: Record<string, unknown>,
  ctx: ExpressionContext,
  summary: string,
) {
  const params = lineParams(resource, record);
  const quoted = effects.flatMap((effect) => {
    const money = amountOf(effect, record, ctx);
    if (!money || effect.kind === "notify") return [];
    const amount = effect.kind === "refund" ? -money.amount : money.amount;
    return [{ label: effect.label, params, amount: { amount, currency: money.currency } }];
  });
  const total = quoted.reduce((sum, line) => sum + line.amount.amount, 0);
  return { summary, params, lines: quoted, total: { amount: total, currency: ctx.currency } };
}

/** The account whose balance an effect moves: the line's account, or the account the field names. */
async function accountOf(tx: Executor, resource: DeclaredResource, field: string, id: unknown, operator: string) {
  if (typeof id !== "string") throw new Error(`${resource.name}: '${field}' holds no id to charge`);
  if (resource.fields[field]?.reference?.resource === "accounts") return id;
  const [line] = await tx
    .select({ accountId: lines.accountId })
    .from(lines)
    .where(and(eq(lines.id, id), eq(lines.operatorCode, operator)));
  if (!line) throw notFound(noSuchRecord(linesResource));
  return line.accountId;
}

export interface EffectRun {
  tx: Executor;
  principal: Principal;
  effects: Effects;
  /** Tells this run's ledger entries from another's: the create, or the action and its request. */
  key: string;
  recordId: string;
  ownerUid: string | null;
}

/**
 * Runs declared effects in the write's transaction: charges and refunds through the ledger (a prepaid
 * balance too small refuses the whole write with 422 and the shortfall), notices to the record's owner.
 */
export async function runEffects(
  run: EffectRun,
  resource: DeclaredResource,
  effects: readonly CompiledEffect[],
  record: Record<string, unknown>,
  ctx: ExpressionContext,
) {
  for (const [index, effect] of effects.entries()) {
    if (effect.kind === "notify") {
      if (run.ownerUid)
        await run.effects.notify({
          recipientUid: run.ownerUid,
          kind: "resource.notice",
          params: { message: effect.message, resource: resource.name, ...lineParams(resource, record) },
          link: `/${resource.name}/show/${run.recordId}`,
        });
      continue;
    }
    const money = amountOf(effect, record, ctx);
    if (!money) continue;
    const accountId = await accountOf(run.tx, resource, effect.account, record[effect.account], run.principal.operator);
    await postLedgerEntry(
      run.tx,
      {
        operatorCode: run.principal.operator,
        accountId,
        kind: effect.kind,
        amount: money.amount,
        currency: money.currency,
        // Posted in English, worded again for each reader from the declaration's label (postedText).
        reason: translateTo("en", effect.label, lineParams(resource, record)),
        actorUid: run.principal.uid,
        actorRole: run.principal.role,
        idempotencyKey: `${resource.name}:${run.recordId}:${run.key}:${index}`,
        reference: { type: resource.name, id: run.recordId },
      },
      (event) => run.effects.publish(event),
    );
    const ownerUids = run.ownerUid ? [run.ownerUid] : [];
    run.effects.publish({ resource: "ledger-entries", type: "created", ids: [accountId], ownerUids });
    run.effects.publish({ resource: "accounts", type: "updated", ids: [accountId], ownerUids });
  }
}

/** The declaration's compiled effects of creating a record and of each action. */
export const declaredEffects = (resource: DeclaredResource) => declaredExpressions(resource).effects;
