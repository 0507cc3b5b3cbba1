import { and, eq, inArray } from "drizzle-orm";
import { accessScope, sourceScope, type Principal } from "#resources/access";
import type { ResourceDefinition } from "#resources/define";
import { liveChannels, resources } from "#resources";
import type { ResourceEvent } from "#resources/events";
import type { Executor } from "../audit";
import { accountMembers, accounts } from "../db/schema";
import { anyRecord } from "../engine/recordQuery";
import type { ModuleMap } from "../engine/records";

type Access = Pick<ResourceDefinition, "access">;

/**
 * The resources a client may follow live, by the name used in `?resources=` and in events: every
 * resource of the registry, and the registry's other live channels (the security policy). Each
 * brings the access declaration its list route enforces.
 */
export const liveResources: Record<string, Access> = {
  ...Object.fromEntries(resources.map((resource) => [resource.name, resource])),
  ...liveChannels,
};

export const liveResourceNames = Object.keys(liveResources);

/**
 * Events whose ids may name records of another resource, whose declaration then decides: a line's
 * meters moved (ids: line ids), so whoever may list that line hears it (GET /lines/{id}/meters answers
 * whoever may open the line); a balance moved (`ledger-entries`, whose writers name the account, all
 * but the approval of an adjustment, which names the entry), so whoever may list that account.
 */
const IDS_ALSO_OF: Record<string, string> = { meters: "lines", "ledger-entries": "accounts" };

/**
 * Whether a receiver hears an event: same operator, and the receiver may list the resource, either
 * all of the operator's records, or only its own ones and it owns a record the event names.
 */
export function mayReceive(
  principal: Principal,
  resource: Access | undefined,
  event: Pick<ResourceEvent, "operator" | "ownerUids">,
): boolean {
  if (!resource || principal.operator !== event.operator) return false;
  const scope = accessScope(principal, resource, "list");
  // "verified" (an agent and a subscriber's records, issue 27): the event carries ids only, and the
  // refetch it prompts answers only a verified caller's records.
  if (scope === "all" || scope === "verified") return true;
  if (scope === "own") return event.ownerUids?.includes(principal.uid) ?? false;
  return false;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an event reaches one follower: at once when its owners decide it, else after one read. */
export type Hears = (event: ResourceEvent) => boolean | Promise<boolean>;

export interface EventAudience {
  /**
   * What one stream's principal hears. Read once when the stream opens: the holders of the accounts
   * the principal is a member or manager of (issue 28), which only says when an event is worth a
   * read; the read itself decides. A change of membership ends the principal's streams (the routes
   * tell every instance, server/domain/accountMembers/routes.ts), so a new stream reads it anew.
   */
  follower(principal: Principal): Promise<Hears>;
}

/**
 * Live events for the people on an account besides its holder (issue 28). An event names its
 * records' holders (`ownerUids`); a member or a manager is none of them, so for them the event's
 * records are looked up under the very scope their list would apply (`sourceScope` of the resource's
 * declaration, `operatorScope` in SQL, as `findRecordRow` does): a manager hears what
 * `ownership.sharedWith` gives managers, a member only the records of their lines, nobody the
 * account's bills unless the declaration shares them. Membership is read from the database on every
 * such event, never cached, so a removed person stops hearing at once on every instance, before
 * their stream is even ended. Streams of the same user share one read per event.
 */
export function createEventAudience(db: Executor, modules: ModuleMap): EventAudience {
  /** One answer per event and user, however many streams the user holds on this instance. */
  const answers = new WeakMap<ResourceEvent, Map<string, Promise<boolean>>>();

  async function seesAnyRecord(principal: Principal, event: ResourceEvent): Promise<boolean> {
    for (const name of [event.resource, IDS_ALSO_OF[event.resource]])
      if (name && (await seesAnyOf(principal, name, event.ids))) return true;
    return false;
  }

  /** Whether the principal's list of the resource would show one of the ids: its own scope, in SQL. */
  async function seesAnyOf(principal: Principal, name: string, given: readonly string[]): Promise<boolean> {
    const target = modules.get(name);
    if (!target) return false;
    const scope = sourceScope(principal, target.resource, "list");
    if (scope !== "own+managers" && scope !== "own+people") return false;
    const { source } = target.module;
    // Ids of the wrong shape name no record (a uuid column would refuse them outright).
    const uuids = (source.id as { columnType?: string }).columnType === "PgUUID";
    const ids = uuids ? given.filter((id) => UUID.test(id)) : [...given];
    if (ids.length === 0) return false;
    return anyRecord(source, db, and(source.scope(principal, scope), inArray(source.id, ids)));
  }

  return {
    async follower(principal) {
      const shared =
        principal.role === "subscriber"
          ? await db
              .select({ holder: accounts.ownerUid })
              .from(accountMembers)
              .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
              .where(
                and(eq(accountMembers.operatorCode, principal.operator), eq(accountMembers.memberUid, principal.uid)),
              )
          : [];
      const holders = new Set(shared.map((s) => s.holder));
      return (event) => {
        const resource = liveResources[event.resource];
        if (mayReceive(principal, resource, event)) return true;
        if (holders.size === 0 || principal.operator !== event.operator || event.ids.length === 0) return false;
        if (accessScope(principal, resource!, "list") !== "own") return false;
        // Only events of accounts they are on are worth a read (an account no one holds yet: any).
        if (!holders.has(null) && !event.ownerUids?.some((uid) => holders.has(uid))) return false;
        const byUser = answers.get(event) ?? answers.set(event, new Map()).get(event)!;
        let answer = byUser.get(principal.uid);
        if (!answer) {
          answer = seesAnyRecord(principal, event);
          byUser.set(principal.uid, answer);
        }
        return answer;
      };
    },
  };
}
