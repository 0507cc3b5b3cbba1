import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Principal } from "#resources/access";
import type { Executor } from "../../audit";
import { accounts, storedFiles, ticketAttachments, ticketMessages, tickets } from "../../db/schema";
import { badRequest, type FieldError } from "../../errors";
import { textIn, words } from "../../i18n/words";

/** The files attached to one message (`messageId` is SQL naming the message's id), oldest first, as JSON. */
export const attachmentsOf = (
  messageId: SQL,
) => sql`(select coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'contentType', f.content_type, 'size', f.size) order by a.created_at, f.id), '[]'::json)
  from ticket_attachments a join stored_files f on f.id = a.file_id where a.message_id = ${messageId})`;

/**
 * Attaches files to a message the principal just wrote. Each must be an attachment the writer
 * uploaded (of the same operator) and not attached anywhere yet: nobody can pass on a file they
 * could not open, or show one person's upload on another person's ticket. A refusal names the
 * index of the file in `attachmentIds` and, thrown inside the write's transaction, changes nothing.
 */
export async function attachFiles(tx: Executor, principal: Principal, messageId: string, fileIds: readonly string[]) {
  if (fileIds.length === 0) return;
  const owned = await tx
    .select({ id: storedFiles.id, attachedTo: ticketAttachments.messageId })
    .from(storedFiles)
    .leftJoin(ticketAttachments, eq(ticketAttachments.fileId, storedFiles.id))
    .where(
      and(
        inArray(storedFiles.id, [...fileIds]),
        eq(storedFiles.operatorCode, principal.operator),
        eq(storedFiles.ownerUid, principal.uid),
        eq(storedFiles.purpose, "attachment"),
      ),
    );
  const byId = new Map(owned.map((row) => [row.id, row]));
  const errors: FieldError[] = [];
  fileIds.forEach((id, index) => {
    const row = byId.get(id);
    if (!row) errors.push({ path: `attachmentIds.${index}`, message: words("tickets.field.notYourAttachment") });
    else if (row.attachedTo)
      errors.push({ path: `attachmentIds.${index}`, message: words("tickets.field.alreadyAttached") });
  });
  if (errors.length)
    throw badRequest(
      (locale) =>
        textIn(
          locale,
          words("tickets.attachmentsNotValid", {
            issues: errors.map((e) => `${e.path}: ${textIn(locale, e.message)}`).join("; "),
          }),
        ),
      errors,
    );
  await tx.insert(ticketAttachments).values(fileIds.map((fileId) => ({ messageId, fileId })));
}

/** Whether the file is attached to a ticket of an account this person holds (so they may download it, whoever uploaded it). */
export async function attachedToHoldersTicket(
  db: Executor,
  operator: string,
  uid: string,
  fileId: string,
): Promise<boolean> {
  const [hit] = await db
    .select({ one: sql<number>`1` })
    .from(ticketAttachments)
    .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
    .innerJoin(tickets, eq(tickets.id, ticketMessages.ticketId))
    .innerJoin(accounts, eq(accounts.id, tickets.accountId))
    .where(and(eq(ticketAttachments.fileId, fileId), eq(tickets.operatorCode, operator), eq(accounts.ownerUid, uid)))
    .limit(1);
  return Boolean(hit);
}
