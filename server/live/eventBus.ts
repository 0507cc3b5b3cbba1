import { sql } from "drizzle-orm";
import type { Client as PgClient } from "pg";
import type { Database } from "../db/client";
import { resourceEventSchema, type ResourceEvent } from "../../src/resources/events";

/** The PostgreSQL channel every backend instance LISTENs on. */
export const EVENT_CHANNEL = "portal_events";
/** NOTIFY payloads must stay under 8000 bytes; events carry ids only, and long id lists are split. */
export const MAX_PAYLOAD_BYTES = 7900;

export type { ResourceEvent };

export type EventListener = (event: ResourceEvent) => void;

export interface EventBus {
  /** Resolves once this instance LISTENs (the first time); rejects when the first LISTEN fails. */
  ready: Promise<void>;
  /** NOTIFY every backend instance on the database (this one included, through its own LISTEN). */
  publish(event: ResourceEvent): Promise<void>;
  /** Local subscribers of this instance; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
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
    return [...toPayloads({ ...event, ids: event.ids.slice(0, half) }), ...toPayloads({ ...event, ids: event.ids.slice(half) })];
  }
  const owners = event.ownerUids!;
  const half = Math.ceil(owners.length / 2);
  return [...toPayloads({ ...event, ownerUids: owners.slice(0, half) }), ...toPayloads({ ...event, ownerUids: owners.slice(half) })];
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
 * PostgreSQL: LISTEN needs a connection of its own (a pooled one would lose it on release), so the
 * bus opens a dedicated pg client and, when it drops, reconnects with a doubling backoff. Events sent
 * while it is down are missed (NOTIFY is not queued for absent listeners); clients refetch when their
 * stream reconnects. PGlite: its listen() API delivers NOTIFY sent within the same instance.
 */
export function createEventBus(database: Pick<Database, "db" | "notifications">, options: EventBusOptions = {}): EventBus {
  const listeners = new Set<EventListener>();
  const log = options.log;
  const initialBackoff = options.initialBackoffMs ?? 500;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  let closed = false;

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
    const subscription = notifications.client.listen(EVENT_CHANNEL, fanOut);
    ready = subscription.then(() => undefined);
    stop = async () => {
      const unlisten = await subscription.catch(() => null);
      await unlisten?.().catch(() => {});
    };
  } else {
    let client: PgClient | null = null;
    let retryTimer: NodeJS.Timeout | null = null;
    let backoff = initialBackoff;

    const connect = async (): Promise<void> => {
      const next = notifications.newClient();
      next.on("notification", (message) => {
        if (message.channel === EVENT_CHANNEL && message.payload !== undefined) fanOut(message.payload);
      });
      // 'error' without a listener would crash the process; 'end' follows it, and reconnects.
      next.on("error", (error) => log?.warn({ err: error }, "live events: the LISTEN connection failed"));
      next.on("end", () => {
        if (client !== next) return;
        client = null;
        scheduleReconnect();
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${EVENT_CHANNEL}`);
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
    };

    const scheduleReconnect = () => {
      if (closed || retryTimer) return;
      const delay = backoff;
      backoff = Math.min(backoff * 2, maxBackoff);
      log?.warn({ delayMs: delay }, "live events: LISTEN connection lost; reconnecting");
      retryTimer = setTimeout(() => {
        retryTimer = null;
        connect().catch((error) => {
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
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
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
