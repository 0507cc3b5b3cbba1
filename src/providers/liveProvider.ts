import type { LiveEvent, LiveProvider } from "@refinedev/core";
import { runtimeConfig } from "../config/runtime";
import { apiBase } from "./apiClient";
import { currentIdToken } from "./session";

import type { ClientResourceEvent } from "../resources/events";

interface Subscription {
  resource: string;
  types: string[];
  callback: (event: LiveEvent) => void;
}

/** The part of EventSource the provider uses (tests pass a fake). */
export interface EventSourceLike {
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: "resource", listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

export interface LiveProviderOptions {
  /** The /api/v1 base of the backend. */
  apiBase?: string;
  operator?: string;
  idToken?: (forceRefresh: boolean) => Promise<string | null>;
  EventSource?: new (url: string) => EventSourceLike;
  /** First reopen delay after an error, doubled up to maxRetryMs and reset once a stream opens. */
  retryMs?: number;
  maxRetryMs?: number;
}

const CHANNEL_PREFIX = "resources/";

/**
 * Refine's live provider over the backend's server-sent events. All subscriptions share one
 * EventSource on `/live?resources=<every subscribed resource>`, reopened when that set changes and
 * closed when nobody is left. EventSource cannot send headers, so the ID token and operator travel
 * in the URL. On an error (dropped connection, expired token: the server ends the stream when the
 * token expires, and answers 401 to a stale one) the stream is closed and reopened after a backoff
 * with a freshly minted token, rather than letting EventSource retry the stale URL forever.
 *
 * Subscribe only to resources the user may list: the backend refuses the whole stream otherwise.
 * Events carry ids only; Refine refetches the affected queries.
 */
export function createLiveProvider(options: LiveProviderOptions = {}): LiveProvider {
  const base = options.apiBase ?? apiBase;
  const operator = options.operator ?? runtimeConfig.operator;
  const idToken = options.idToken ?? currentIdToken;
  const Source = options.EventSource ?? globalThis.EventSource;
  const firstRetry = options.retryMs ?? 1_000;
  const maxRetry = options.maxRetryMs ?? 30_000;

  const subscriptions = new Set<Subscription>();
  let source: EventSourceLike | null = null;
  let openFor = "";
  let generation = 0;
  let retry = firstRetry;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let scheduled = false;

  const wanted = () => [...new Set([...subscriptions].map((s) => s.resource))].sort().join(",");

  function deliver(data: ClientResourceEvent) {
    const event: LiveEvent = {
      channel: `${CHANNEL_PREFIX}${data.resource}`,
      type: data.type,
      payload: { ids: data.ids },
      date: new Date(data.at),
    };
    for (const subscription of [...subscriptions]) {
      if (subscription.resource !== data.resource) continue;
      if (!subscription.types.includes("*") && !subscription.types.includes(data.type)) continue;
      subscription.callback(event);
    }
  }

  function closeSource() {
    generation++;
    source?.close();
    source = null;
    openFor = "";
  }

  async function open(resources: string, forceRefresh: boolean) {
    closeSource();
    const mine = generation;
    let token: string | null;
    try {
      token = await idToken(forceRefresh);
    } catch {
      token = null;
    }
    if (mine !== generation || !token || wanted() !== resources) {
      // Superseded, or no session (signed out): nothing to open; a later change reconciles again.
      if (mine === generation && token === null && subscriptions.size) scheduleRetry();
      return;
    }
    const params = new URLSearchParams({ resources, token, operator });
    const next = new Source(`${base}/live?${params}`);
    source = next;
    openFor = resources;
    next.onopen = () => {
      retry = firstRetry;
    };
    next.onerror = () => {
      if (source !== next) return;
      closeSource();
      scheduleRetry();
    };
    next.addEventListener("resource", (message) => {
      if (source !== next) return;
      try {
        deliver(JSON.parse(message.data as string) as ClientResourceEvent);
      } catch {
        // Not an event we understand: ignore it.
      }
    });
  }

  function scheduleRetry() {
    if (retryTimer) return;
    const delay = retry;
    retry = Math.min(retry * 2, maxRetry);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      const resources = wanted();
      if (resources) void open(resources, true);
    }, delay);
  }

  /** Brings the stream in line with the subscriptions, once per tick however many changed. */
  function reconcile() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      const resources = wanted();
      if (!resources) {
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        retry = firstRetry;
        closeSource();
        return;
      }
      if (resources !== openFor && !retryTimer) void open(resources, false);
    });
  }

  return {
    subscribe({ channel, types, callback }) {
      if (!channel.startsWith(CHANNEL_PREFIX)) return null;
      const subscription: Subscription = {
        resource: channel.slice(CHANNEL_PREFIX.length),
        types: types.length ? types : ["*"],
        callback,
      };
      subscriptions.add(subscription);
      reconcile();
      return subscription;
    },
    unsubscribe(subscription: Subscription | null) {
      if (!subscription || !subscriptions.delete(subscription)) return;
      reconcile();
    },
  };
}

/** The portal's live provider (the backend's SSE stream, signed in as the current Firebase user). */
export const liveProvider: LiveProvider = createLiveProvider();
