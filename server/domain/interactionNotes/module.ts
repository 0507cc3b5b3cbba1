import { and, eq } from "drizzle-orm";
import { staffMembers } from "../../db/schema";
import { notFound } from "../../errors";
import { words } from "../../i18n/words";
import type { DeclaredResource } from "../../lib/declaredResource";
import type { DomainModule } from "../../engine/types";
import { documentModule } from "../../generic/documentModule";
import { personOfAccount } from "../tableSource";

/**
 * Interaction notes are documents (the generic module) whose person and writer the server sets: the
 * person of the account the note is written on (so every account of that person shows it), and the
 * writer's display name (their email when they have none) as it is at the time of writing.
 * A note is never edited or deleted: it is what was said, when, by whom (and audited as written).
 */
export function interactionNotesModule(resource: DeclaredResource): DomainModule {
  const module = documentModule(resource);
  const baseWriter = module.writer!;
  return {
    ...module,
    writer: {
      ...module.writer,
      async create(ctx, body, owners) {
        const { operator, uid } = ctx.principal;
        // The engine checked the reference (an account of this operator the writer may open).
        const personId = await personOfAccount(ctx.tx, operator, String(body.subscriberId));
        if (!personId) throw notFound(words("subscribers.noSuch"));
        const [writer] = await ctx.tx
          .select({ displayName: staffMembers.displayName, email: staffMembers.email })
          .from(staffMembers)
          .where(and(eq(staffMembers.uid, uid), eq(staffMembers.operatorCode, operator)))
          .limit(1);
        // Staff always have a row (sign-in checks it); a token's uid is the last resort, never empty.
        const authorName = writer?.displayName?.trim() || writer?.email || uid;
        return baseWriter.create!(ctx, { ...body, personId, authorName }, owners);
      },
    },
  };
}
