import { and, eq, sql } from "drizzle-orm";
import { isStaff, type Principal } from "#resources/access";
import type { Executor } from "../../audit";
import { accounts, orders, storedFiles } from "../../db/schema";
import { unprocessable } from "../../errors";
import { words } from "../../i18n/words";

/**
 * The ID document an action relies on (moving a line to an eSIM): an upload of purpose id_document,
 * of the principal's operator, uploaded by the line's holder or by the staff member acting for them
 * now (as ticket attachments are the writer's own uploads). Anything else is refused with 422 at the
 * field, without telling whether someone else's file exists.
 */
export async function checkIdDocument(
  db: Executor,
  principal: Principal,
  holderUid: string | null,
  fileId: string,
  path = "idDocumentFileId",
) {
  const [file] = await db
    .select({ ownerUid: storedFiles.ownerUid, purpose: storedFiles.purpose })
    .from(storedFiles)
    .where(and(eq(storedFiles.id, fileId), eq(storedFiles.operatorCode, principal.operator)))
    .limit(1);
  const mayUse =
    file &&
    ((holderUid !== null && file.ownerUid === holderUid) ||
      (isStaff(principal.role) && file.ownerUid === principal.uid));
  if (!mayUse)
    throw unprocessable(words("files.idDocument.notYours"), [
      { path, message: words("files.idDocument.field.notYours") },
    ]);
  if (file.purpose !== "id_document")
    throw unprocessable(words("files.idDocument.notIdDocument"), [
      { path, message: words("files.idDocument.field.notIdDocument") },
    ]);
}

/**
 * Whether the file is the ID document of an order on an account this person holds (an eSIM transfer
 * care carried out for them): they may download it, whoever uploaded it.
 */
export async function idDocumentOfHoldersOrder(
  db: Executor,
  operator: string,
  uid: string,
  fileId: string,
): Promise<boolean> {
  const [hit] = await db
    .select({ one: sql<number>`1` })
    .from(orders)
    .innerJoin(accounts, eq(accounts.id, orders.accountId))
    .where(
      and(
        eq(orders.operatorCode, operator),
        eq(accounts.ownerUid, uid),
        sql`${orders.details}->>'idDocumentFileId' = ${fileId}`,
      ),
    )
    .limit(1);
  return Boolean(hit);
}
