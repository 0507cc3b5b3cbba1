import { and, asc, eq } from "drizzle-orm";
import type { ResourceDefinition } from "../../../src/resources/define";
import type { Executor } from "../../audit";
import { accounts, lines } from "../../db/schema";
import type { DomainModule, WriteContext } from "../../engine/types";
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
  (await tx.select({ name: accounts.name, email: accounts.email, phone: accounts.phone }).from(lines).innerJoin(accounts, eq(accounts.id, lines.accountId)).where(eq(lines.id, lineId)))[0];

const firstAccountOf = async (tx: Executor, operator: string, uid: string) =>
  (
    await tx
      .select({ name: accounts.name, email: accounts.email, phone: accounts.phone })
      .from(accounts)
      .where(and(eq(accounts.operatorCode, operator), eq(accounts.ownerUid, uid)))
      .orderBy(asc(accounts.createdAt))
      .limit(1)
  )[0];

type LeadOf = (ctx: WriteContext, id: string, body: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * A document resource whose every new record also becomes a CRM lead, written in the record's own
 * transaction (if the record is not stored, neither is the lead).
 */
function withCrmLeads(resource: ResourceDefinition<any, any>, source: CrmLeadSource, leadOf: LeadOf): DomainModule {
  const module = documentModule(resource);
  const create = module.writer!.create!;
  return {
    ...module,
    writer: {
      ...module.writer,
      async create(ctx, body, owners) {
        const id = await create(ctx, body, owners);
        const fields = { ...(await leadOf(ctx, id, body)), SOURCE_ID: "WEB", ORIGINATOR_ID: `portal-${ctx.principal.operator}`, ORIGIN_ID: `${source}:${id}` };
        await enqueueCrmLead(ctx.tx, { operatorCode: ctx.principal.operator, source: { type: source, id }, fields });
        return id;
      },
    },
  };
}

export const deviceClaimLeads = (resource: ResourceDefinition<any, any>) =>
  withCrmLeads(resource, "device_claim", async (ctx, id, body) => ({
    TITLE: `Device claim: ${String(body.incident)}`,
    ...contactFields(await accountOfLine(ctx.tx, String(body.lineId))),
    COMMENTS: `${String(body.description)}\n\nIncident on ${String(body.occurredOn)}. Portal claim ${id}.`,
  }));

export const contactRequestLeads = (resource: ResourceDefinition<any, any>) =>
  withCrmLeads(resource, "contact_request", async (ctx, id, body) => ({
    TITLE: `Contact me (${String(body.channel)}): ${String(body.topic)}`,
    ...contactFields(await firstAccountOf(ctx.tx, ctx.principal.operator, ctx.principal.uid)),
    COMMENTS: `${String(body.message)}\n\nPortal contact request ${id}.`,
  }));
