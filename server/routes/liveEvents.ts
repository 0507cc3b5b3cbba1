import { PassThrough } from "node:stream";
import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { stillAllowed } from "../auth/requestAuth";
import { forbidden } from "../errors";
import { words, type WordsKey } from "../i18n/words";
import type { EventBus } from "../live/eventBus";
import type { ClientResourceEvent, ResourceEvent } from "#resources/events";
import { liveResourceNames, liveResources, mayReceive, type EventAudience } from "../live/eventScope";
import { routeSchema } from "../openapi/routeDoc";
import type { EngineServices } from "../engine/services";
import type { TokenVerifier } from "../auth/tokenVerifier";

/** A comment line every 25 s keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting a dropped stream (the SSE `retry` field). */
export const RETRY_MS = 3_000;

const liveQuerySchema = z.object({
  resources: z
    .string("routes.live.resourcesRequired" satisfies WordsKey)
    .transform((text) => [
      ...new Set(
        text
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ])
    .refine((names) => names.length > 0, "routes.live.atLeastOne" satisfies WordsKey)
    .refine((names) => names.every((name) => Object.hasOwn(liveResources, name)), {
      message: "routes.live.unknownResource" satisfies WordsKey,
      params: { resources: liveResourceNames.join(", ") },
    })
    .describe(`comma-separated resources to follow: ${liveResourceNames.join(", ")}`),
  token: z
    .string()
    .optional()
    .describe("the Firebase ID token, when the Authorization header cannot be sent (EventSource)"),
  operator: z.string().optional().describe("the carrier code, when the X-Operator header cannot be sent (EventSource)"),
});

const liveHeadersSchema = z.object({
  "x-operator": z.string().optional().describe("carrier code of the caller's operator; or the operator parameter"),
  "x-app-version": z.string().optional(),
});

/** Streams one user may hold on an instance; opening one more ends their oldest. */
export const LIVE_STREAMS_PER_USER = 10;

/** The ID token the /api/v1 hook verified: the Authorization header's, else the query's (EventSource). */
function tokenOf(authorization: string | undefined, queryToken: string | undefined): string {
  return authorization?.replace(/^Bearer\s+/i, "") || queryToken || "";
}

/** The `exp` of an already verified JWT, in ms; the stream ends then so the client reconnects with a fresh token. */
function tokenExpiryMs(token: string): number | null {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
    return typeof payload === "object" && payload !== null && "exp" in payload && typeof payload.exp === "number"
      ? payload.exp * 1000
      : null;
  } catch {
    return null;
  }
}

/** One `event: resource` of the stream, as text. */
const eventStreamSchema = z
  .string()
  .describe("`event: resource` blocks whose data is `{resource, type, ids, at}`; comment lines as heartbeats");

/** What a browser is told: never the operator or the owners, only what changed and which ids. */
const toClient = (event: ResourceEvent): ClientResourceEvent => ({
  resource: event.resource,
  type: event.type,
  ids: event.ids,
  at: event.at,
});

/**
 * GET /api/v1/live: server-sent events for the resources named in `?resources=`.
 *
 * Browsers' EventSource cannot send headers, so this route alone also takes the ID token and the
 * operator from the query (`token`, `operator`); they are checked by the same /api/v1 hook as every
 * other route (config.queryCredentials), and the request logger redacts `token` from URLs.
 *
 * A stream ends when its user's access changes on any instance (role, disabled, signed out, or an
 * operator policy that now refuses them): the client reconnects, and its token is decided anew.
 * Changes made outside the portal (Firebase console, another service's Admin SDK) tell no instance,
 * so every stream also asks Firebase about its token every TOKEN_CACHE_SECONDS (at least 1 s) and
 * ends when it is revoked, its account disabled or its claims changed. A user holds at most
 * LIVE_STREAMS_PER_USER streams on an instance: one more ends their oldest.
 *
 * Members and managers of an account (issue 28) hear its events as their lists would show them
 * (server/live/eventScope.ts, createEventAudience): some events need a read to tell, so events go
 * out one after the other in the order they came, whatever each took to decide.
 */
export const liveEventRoutes =
  (
    services: Pick<EngineServices, "invalidation" | "operators">,
    events: EventBus,
    verifier: Pick<TokenVerifier, "verify" | "cacheSeconds">,
    audience: EventAudience,
  ): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const open = new Set<(note?: string) => void>();
    /** Each user's open streams on this instance, oldest first (their `end`). */
    const byUser = new Map<string, ((note?: string) => void)[]>();
    const recheckMs = Math.max(1, verifier.cacheSeconds) * 1000;
    // A stream never ends by itself: end them all so closing the server does not wait for clients.
    app.addHook("preClose", (done) => {
      for (const end of [...open]) end();
      done();
    });

    app.get(
      "/live",
      {
        config: { queryCredentials: true },
        schema: routeSchema(
          {
            operationId: "followLiveEvents",
            summary: "Follow changes of resources as server-sent events (text/event-stream)",
            tag: "live",
            description:
              "Each change is `event: resource` with data `{resource, type: created|updated|deleted, ids, at}`: ids only, " +
              "never record contents; refetch through the API. Events are scoped like the lists: the caller's operator, and " +
              "only resources the caller may list (subscribers: events naming their own records, and those of the accounts " +
              "they are a member or manager of that their lists would show). A comment line every 25 s " +
              "keeps the stream open; the stream ends when the ID token expires or is revoked (checked with Firebase every " +
              "TOKEN_CACHE_SECONDS), when the account is disabled, and when the same user opens more than 10 (the oldest ends), " +
              "and the client reconnects with a fresh token. " +
              "EventSource cannot send headers, so `token` and `operator` may be given as parameters instead.",
          },
          {
            headers: liveHeadersSchema,
            querystring: liveQuerySchema,
            // A stream is piped as is, never serialized: this only documents it.
            response: {
              200: {
                description: "The event stream; it ends when the token expires, is revoked or access changes",
                content: { "text/event-stream": { schema: eventStreamSchema } },
              },
            },
          },
        ),
      },
      async (request, reply) => {
        const principal = request.principal;
        const names = request.query.resources;
        const refused = names.filter(
          (name) =>
            !mayReceive(principal, liveResources[name], { operator: principal.operator, ownerUids: [principal.uid] }),
        );
        if (refused.length) throw forbidden(words("routes.live.mayNotFollow", { resources: refused.join(", ") }));
        const followed = new Set(names);

        const stream = new PassThrough();
        const write = (text: string) => {
          if (!stream.writableEnded) stream.write(text);
        };
        const hears = await audience.follower(principal);
        let sent: Promise<void> = Promise.resolve();
        const unsubscribe = events.subscribe((event) => {
          if (!followed.has(event.resource)) return;
          const heard = hears(event);
          if (heard === false) return;
          sent = sent
            .then(async () => {
              if (await heard) write(`event: resource\ndata: ${JSON.stringify(toClient(event))}\n\n`);
            })
            .catch((error: unknown) =>
              request.log.error({ err: error }, "could not tell whether a live event is theirs"),
            );
        });
        const stopWatching = services.invalidation.subscribe((change) => {
          stillAllowed(change, request.identity, services.operators).then(
            (allowed) => allowed || end(),
            () => end(),
          );
        });
        const heartbeat = setInterval(() => write(": heartbeat\n\n"), HEARTBEAT_MS);
        const token = tokenOf(request.headers.authorization, request.query.token);
        const expiresAt = tokenExpiryMs(token);
        const expiry =
          expiresAt === null
            ? null
            : setTimeout(() => end(), Math.max(0, Math.min(expiresAt - Date.now(), 2 ** 31 - 1)));
        // Revoked or disabled outside the portal: no instance is told, so ask Firebase (one check at a time).
        let checking = false;
        const recheck = setInterval(() => {
          if (checking) return;
          checking = true;
          verifier.verify(token, { fresh: true }).then(
            () => (checking = false),
            () => end(),
          );
        }, recheckMs);

        const uid = principal.uid;
        let ended = false;
        const end = (note?: string) => {
          if (ended) return;
          ended = true;
          if (note) write(`: ${note}\n\n`);
          open.delete(end);
          const mine = byUser.get(uid)?.filter((other) => other !== end) ?? [];
          if (mine.length) byUser.set(uid, mine);
          else byUser.delete(uid);
          unsubscribe();
          stopWatching();
          clearInterval(heartbeat);
          clearInterval(recheck);
          if (expiry) clearTimeout(expiry);
          stream.end();
        };
        open.add(end);
        reply.raw.on("close", () => end());
        const mine = [...(byUser.get(uid) ?? []), end];
        byUser.set(uid, mine);
        // One stream too many: the oldest goes, with a word for whoever reads it.
        for (const oldest of mine.slice(0, Math.max(0, mine.length - LIVE_STREAMS_PER_USER)))
          oldest(`closed: more than ${LIVE_STREAMS_PER_USER} open streams of this user`);

        write(`retry: ${RETRY_MS}\n: following ${[...followed].join(",")}\n\n`);
        return reply
          .header("content-type", "text/event-stream; charset=utf-8")
          .header("cache-control", "no-store")
          .header("x-accel-buffering", "no")
          .send(stream as never); // a stream is piped as is, never serialized
      },
    );
    done();
  };
