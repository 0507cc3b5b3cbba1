import type { Executor } from "../../audit";
import { crmOutbox } from "../../db/schema";

/** What a lead is about; each record becomes at most one lead. */
export type CrmLeadSource = "device_claim" | "contact_request" | "refund_claim";

export interface CrmLead {
  operatorCode: string;
  source: { type: CrmLeadSource; id: string };
  /** Bitrix24 lead fields as crm.lead.add takes them: TITLE, NAME, PHONE, EMAIL, COMMENTS, … */
  fields: Record<string, unknown>;
}

/**
 * Records a lead for the operator's CRM in the caller's transaction, so the lead exists exactly when
 * the record it comes from does (the transactional outbox); the delivery worker sends it later.
 * A second call for the same record adds nothing. Written whatever BITRIX_INTEGRATION_REQUIRED says:
 * with the flag off the worker never runs and nothing leaves.
 */
export async function enqueueCrmLead(tx: Executor, lead: CrmLead): Promise<void> {
  await tx
    .insert(crmOutbox)
    .values({
      operatorCode: lead.operatorCode,
      sourceType: lead.source.type,
      sourceId: lead.source.id,
      fields: lead.fields,
    })
    .onConflictDoNothing({ target: [crmOutbox.operatorCode, crmOutbox.sourceType, crmOutbox.sourceId] });
}
