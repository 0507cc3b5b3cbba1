import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accounts, lines } from "../../db/schema";
import type { DeclaredResource } from "../../lib/declaredResource";
import type { DomainModule, WriteContext } from "../../engine/types";
import { moneyText } from "../../i18n/formats";
import { documentModule } from "../../generic/documentModule";
import { enqueueCrmLead, type CrmLeadSource } from "./outbox";

interface Contact {
  name: string;
  email: string | null;
  phone: string | null;
}

/** Bitrix24 multi-fields (PHONE, EMAIL) are lists of {VALUE, VALUE_TYPE}. */
function contactFields(contact: Contact | undefined): Record<string, unknown> {
  if (!contact) return {};
  return {
    NAME: contact.name,
    ...(contact.phone ? { PHONE: [{ VALUE: contact.phone, VALUE_TYPE: "MOBILE" }] } : {}),
    ...(contact.email ? { EMAIL: [{ VALUE: contact.email, VALUE_TYPE: "HOME" }] } : {}),
  };
}

const accountOfLine = async (tx: Executor, lineId: string) =>
  (
    await tx
      .select({ name: accounts.name, email: accounts.email, phone: accounts.phone })
      .from(lines)
      .innerJoin(accounts, eq(accounts.id, lines.accountId))
      .where(eq(lines.id, lineId))
  )[0];

const accountById = async (tx: Executor, accountId: string) =>
  (
    await tx
      .select({ name: accounts.name, email: accounts.email, phone: accounts.phone })
      .from(accounts)
      .where(eq(accounts.id, accountId))
  )[0];

const firstAccountOf = async (tx: Executor, operator: string, uid: string) =>
  (
    await tx
      .select({ name: accounts.name, email: accounts.email, phone: accounts.phone })
      .from(accounts)
      .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
      .orderBy(asc(accounts.createdAt))
      .limit(1)
  )[0];

/** The fields every lead of the portal carries: where it comes from, and the record it is about. */
const originFields = (operator: string, source: CrmLeadSource, id: string) => ({
  SOURCE_ID: "WEB",
  ORIGINATOR_ID: `portal-${operator}`,
  ORIGIN_ID: `${source}:${id}`,
});

type LeadOf = (ctx: WriteContext, id: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * A document resource whose every new record also becomes a CRM lead, written in the record's own
 * transaction (if the record is not stored, neither is the lead).
 */
function withCrmLeads(resource: DeclaredResource, source: CrmLeadSource, leadOf: LeadOf): DomainModule {
  const module = documentModule(resource);
  const baseWriter = module.writer!;
  return {
    ...module,
    writer: {
      ...module.writer,
      async create(ctx, body, owners) {
        const id = await baseWriter.create!(ctx, body, owners);
        const fields = { ...(await leadOf(ctx, id, body)), ...originFields(ctx.principal.operator, source, id) };
        await enqueueCrmLead(ctx.tx, { operatorCode: ctx.principal.operator, source: { type: source, id }, fields });
        return id;
      },
    },
  };
}

export const deviceClaimLeads = (resource: DeclaredResource) =>
  withCrmLeads(resource, "device_claim", async (ctx, id, body) => ({
    TITLE: `Device claim: ${String(body.incident)}`,
    ...contactFields(await accountOfLine(ctx.tx, String(body.lineId))),
    COMMENTS: `${String(body.description)}\n\nIncident on ${String(body.occurredOn)}. Portal claim ${id}.`,
  }));

export const contactRequestLeads = (resource: DeclaredResource) =>
  withCrmLeads(resource, "contact_request", async (ctx, id, body) => ({
    TITLE: `Contact me (${String(body.channel)}): ${String(body.topic)}`,
    ...contactFields(await firstAccountOf(ctx.tx, ctx.principal.operator, ctx.principal.uid)),
    COMMENTS: `${String(body.message)}\n\nPortal contact request ${id}.`,
  }));

/** Minor units as the decimal string Bitrix24 takes for OPPORTUNITY ("13.00" for 1300 USD). */
function decimalText(amount: number, currency: string): string {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const text = String(Math.abs(amount)).padStart(digits + 1, "0");
  return `${amount < 0 ? "-" : ""}${digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text}`;
}

/** What a refund claim's lead needs of the claimed top-up (server/domain/topUps: TopUpRow). */
interface ClaimedTopUp {
  id: string;
  operatorCode: string;
  accountId: string;
  amount: number;
  currency: string;
  status: string;
  gatewayChargeId: string | null;
}

/**
 * A refund claim on a card top-up becomes a lead, in the claim's own transaction (the
 * `claim-refund` action's handler calls this): a refused claim writes neither.
 */
export async function enqueueRefundClaimLead(ctx: WriteContext, topUp: ClaimedTopUp): Promise<void> {
  const amount = moneyText({ amount: topUp.amount, currency: topUp.currency });
  const fields = {
    TITLE: `Refund claim: card top-up of ${amount}`,
    ...contactFields(await accountById(ctx.tx, topUp.accountId)),
    OPPORTUNITY: decimalText(topUp.amount, topUp.currency),
    CURRENCY_ID: topUp.currency,
    COMMENTS: `The card was charged ${amount} for a top-up that was ${topUp.status} on our side${topUp.gatewayChargeId ? ` (gateway charge ${topUp.gatewayChargeId})` : ""}. Claimed by the ${ctx.principal.role}. Portal top-up ${topUp.id}.`,
    ...originFields(topUp.operatorCode, "refund_claim", topUp.id),
  };
  await enqueueCrmLead(ctx.tx, {
    operatorCode: topUp.operatorCode,
    source: { type: "refund_claim", id: topUp.id },
    fields,
  });
}
