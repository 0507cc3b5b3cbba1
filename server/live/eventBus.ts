import { sql } from "drizzle-orm";
import type { Client as PgClient } from "pg";
import type { Database } from "../db/client";
import { resourceEventSchema, type ResourceEvent } from "#resources/events";

/** The PostgreSQL channel of resource events, which every backend instance LISTENs on. */
export const EVENT_CHANNEL = "portal_events";
/**
 * The channel of access invalidations (server/auth/accessInvalidation.ts), LISTENed on the same
 * connection. A channel of its own keeps them away from resource subscribers, hence from browsers.
 */
export const ACCESS_CHANNEL = "portal_access";
/** NOTIFY payloads must stay under 8000 bytes; events carry ids only, and long id lists are split. */
export const MAX_PAYLOAD_BYTES = 7900;

export type { ResourceEvent };

export type EventListener = (event: ResourceEvent) => void;

/** A listener of the access channel. */
export interface AccessListener {
  /** A message from any instance (this one included). */
  message(text: string): void;
  /** The LISTEN connection was lost, or is back: messages sent in between never arrived. */
  missed(): void;
}

/** The second kind of message on the bus: access invalidations, never seen by resource subscribers. */
export interface AccessChannel {
  /** NOTIFY every backend instance on the database (this one included). */
  publish(message: string): Promise<void>;
  /** Local listeners of this instance; returns the unsubscribe function. */
  subscribe(listener: AccessListener): () => void;
}

export interface EventBus {
  /** Resolves once this instance LISTENs (the first time); rejects when the first LISTEN fails. */
  ready: Promise<void>;
  /** NOTIFY every backend instance on the database (this one included, through its own LISTEN). */
  publish(event: ResourceEvent): Promise<void>;
  /** Local subscribers of this instance; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
  /** Access invalidations, on the same connection but their own channel. */
  access: AccessChannel;
  close(): Promise<void>;
}

export interface EventBusOptions {
  /** Where reconnects and dropped payloads are reported. */
  log?: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** First reconnect delay of the PostgreSQL LISTEN connection, doubled up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** One event as NOTIFY payloads under the size limit: the ids (and owners) are split until each fits. */
export function toPayloads(event: ResourceEvent): string[] {
  const payload = JSON.stringify(event);
  if (byteLength(payload) <= MAX_PAYLOAD_BYTES) return [payload];
  if (event.ids.length <= 1 && (event.ownerUids?.length ?? 0) <= 1) {
    throw new Error(`A ${event.resource} event does not fit a NOTIFY payload even with one id.`);
  }
  if (event.ids.length > 1) {
    // Owners stay with each half: a receiver may only be told about ids of records it may see, and
    // over-telling an owner about a sibling id leaks nothing but an id it cannot open (404).
    const half = Math.ceil(event.ids.length / 2);
    return [
      ...toPayloads({ ...event, ids: event.ids.slice(0, half) }),
      ...toPayloads({ ...event, ids: event.ids.slice(half) }),
    ];
  }
  const owners = event.ownerUids!;
  const half = Math.ceil(owners.length / 2);
  return [
    ...toPayloads({ ...event, ownerUids: owners.slice(0, half) }),
    ...toPayloads({ ...event, ownerUids: owners.slice(half) }),
  ];
}

/** Parses a NOTIFY payload; anything that is not an event (another writer on the channel) is dropped. */
export function parsePayload(payload: string): ResourceEvent | null {
  try {
    const parsed = resourceEventSchema.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Resource events across backend instances through PostgreSQL LISTEN/NOTIFY. `publish` sends
 * `pg_notify('portal_events', <json>)` (a bound parameter, never SQL text); every instance LISTENs
 * and fans the events out to its local subscribers, so an instance hears its own events the same way
 * as everybody else's (once).
 *
 * The same connection carries a second kind of message, access invalidations, on ACCESS_CHANNEL:
 * they go to `access` listeners only, never to resource subscribers (and so never to browsers).
 *
 * PostgreSQL: LISTEN needs a connection of its own (a pooled one would lose it on release), so the
 * bus opens a dedicated pg client and, when it drops, reconnects with a doubling backoff. Events sent
 * while it is down are missed (NOTIFY is not queued for absent listeners); clients refetch when their
 * stream reconnects, and access listeners are told (`missed`) when it drops and when it is back.
 * PGlite: its listen() API delivers NOTIFY sent within the same instance.
 */
export function createEventBus(
  database: Pick<Database, "db" | "notifications">,
  options: EventBusOptions = {},
): EventBus {
  const listeners = new Set<EventListener>();
  const accessListeners = new Set<AccessListener>();
  const log = options.log;
  const initialBackoff = options.initialBackoffMs ?? 500;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let closed = false;

  function toAccessListeners(call: (listener: AccessListener) => void) {
    for (const listener of [...accessListeners]) {
      try {
        call(listener);
      } catch (error) {
        log?.error({ err: error }, "an access listener failed");
      }
    }
  }
  const accessMessage = (payload: string) => toAccessListeners((listener) => listener.message(payload));
  const accessMissed = () => toAccessListeners((listener) => listener.missed());

  function fanOut(payload: string) {
    const event = parsePayload(payload);
    if (!event) {
      log?.warn({ payload: payload.slice(0, 200) }, "ignored a notification that is not a resource event");
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        log?.error({ err: error }, "a live event subscriber failed");
      }
    }
  }

  let stop: () => Promise<void> = async () => {};
  let ready: Promise<void>;
  const notifications = database.notifications;

  if (!notifications) {
    // A stand-in database without LISTEN: events stay within this process.
    ready = Promise.resolve();
  } else if (notifications.driver === "pglite") {
    const subscriptions = [
      notifications.client.listen(EVENT_CHANNEL, fanOut),
      notifications.client.listen(ACCESS_CHANNEL, accessMessage),
    ];
    ready = Promise.all(subscriptions).then(() => undefined);
    stop = async () => {
      for (const subscription of subscriptions) {
        const unlisten = await subscription.catch(() => null);
        await unlisten?.().catch(() => {});
      }
    };
  } else {
    let client: PgClient | null = null;
    let retryTimer: NodeJS.Timeout | null = null;
    let backoff = initialBackoff;
    let listenedBefore = false;

    const connect = async (): Promise<void> => {
      const next = notifications.newClient();
      next.on("notification", (message) => {
        if (message.payload === undefined) return;
        if (message.channel === EVENT_CHANNEL) fanOut(message.payload);
        else if (message.channel === ACCESS_CHANNEL) accessMessage(message.payload);
      });
      // 'error' without a listener would crash the process; 'end' follows it, and reconnects.
      next.on("error", (error) => log?.warn({ err: error }, "live events: the LISTEN connection failed"));
      next.on("end", () => {
        if (client !== next) return;
        client = null;
        accessMissed();
        scheduleReconnect();
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${EVENT_CHANNEL}; LISTEN ${ACCESS_CHANNEL}`);
      } catch (error) {
        await next.end().catch(() => {});
        throw error;
      }
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      backoff = initialBackoff;
      // Whatever was sent while no connection listened is lost.
      if (listenedBefore) accessMissed();
      listenedBefore = true;
    };

    const scheduleReconnect = () => {
      if (closed || retryTimer) return;
      const delay = backoff;
      backoff = Math.min(backoff * 2, maxBackoff);
      log?.warn({ delayMs: delay }, "live events: LISTEN connection lost; reconnecting");
      retryTimer = setTimeout(() => {
        retryTimer = null;
        connect().catch((error: unknown) => {
          log?.warn({ err: error }, "live events: reconnecting LISTEN failed");
          scheduleReconnect();
        });
      }, delay);
      retryTimer.unref();
    };

    ready = connect();
    stop = async () => {
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    };
  }
  // Nobody may be awaiting `ready`; a failed first LISTEN must not become an unhandled rejection.
  ready.catch(() => {});

  return {
    ready,
    async publish(event) {
      if (closed) return;
      const payloads = toPayloads(event);
      if (!notifications) {
        for (const payload of payloads) fanOut(payload);
        return;
      }
      for (const payload of payloads) await database.db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${payload})`);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    access: {
      async publish(message) {
        if (closed) return;
        if (!notifications) return accessMessage(message);
        await database.db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${message})`);
      },
      subscribe(listener) {
        accessListeners.add(listener);
        return () => {
          accessListeners.delete(listener);
        };
      },
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      accessListeners.clear();
      await stop();
    },
  };
}

/**
 * Publishes an event after a write committed, without changing the write's outcome: the change is
 * done and answered even when the notification fails (logged; live clients then miss one refresh).
 */
export async function publishAfterCommit(
  events: EventBus | undefined,
  log: { error(obj: unknown, msg?: string): void },
  event: ResourceEvent,
): Promise<void> {
  if (!events) return;
  try {
    await events.publish(event);
  } catch (error) {
    log.error({ err: error, resource: event.resource, type: event.type }, "could not publish a live event");
  }
}
