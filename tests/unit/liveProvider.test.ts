import { afterEach, describe, expect, it, vi } from "vitest";
import type { LiveEvent } from "@refinedev/core";
import { createLiveProvider, type EventSourceLike } from "../../src/providers/liveProvider";

// The provider with a fake EventSource and token source; Firebase Auth is not needed here.
vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve(null),
  currentSessionUser: () => Promise.resolve(null),
}));

class FakeSource implements EventSourceLike {
  static all: FakeSource[] = [];
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  listeners: ((event: MessageEvent<string>) => void)[] = [];
  constructor(readonly url: string) {
    FakeSource.all.push(this);
  }
  addEventListener(_type: "resource", listener: (event: MessageEvent<string>) => void) {
    this.listeners.push(listener);
  }
  close() {
    this.closed = true;
  }
  emit(data: unknown) {
    for (const l of this.listeners) l({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  get params() {
    return new URL(this.url).searchParams;
  }
}

const open = () => FakeSource.all.filter((s) => !s.closed);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function provider() {
  let n = 0;
  const tokens: boolean[] = [];
  const live = createLiveProvider({
    apiBase: "http://api.test/api/v1",
    operator: "ATT",
    EventSource: FakeSource,
    idToken: (force) => {
      tokens.push(force);
      return Promise.resolve(`token-${++n}`);
    },
    retryMs: 10,
  });
  return { live, tokens };
}

afterEach(() => {
  FakeSource.all = [];
});

describe("liveProvider", () => {
  it("shares one stream for every subscribed resource, with the token and operator in the URL", async () => {
    const { live } = provider();
    const lines: LiveEvent[] = [];
    const staff: LiveEvent[] = [];
    const a: unknown = live.subscribe({ channel: "resources/lines", types: ["*"], callback: (e) => lines.push(e) });
    const b: unknown = live.subscribe({
      channel: "resources/staff",
      types: ["created"],
      callback: (e) => staff.push(e),
    });
    await settle();
    expect(open()).toHaveLength(1);
    const stream = open()[0]!;
    expect(stream.url.startsWith("http://api.test/api/v1/live?")).toBe(true);
    expect(Object.fromEntries(stream.params)).toEqual({ resources: "lines,staff", token: "token-1", operator: "ATT" });

    stream.emit({ resource: "staff", type: "created", ids: ["u1"], at: "2026-01-01T00:00:00.000Z" });
    stream.emit({ resource: "staff", type: "updated", ids: ["u1"], at: "2026-01-01T00:00:01.000Z" }); // not a type b wants
    stream.emit({ resource: "lines", type: "updated", ids: ["l1", "l2"], at: "2026-01-01T00:00:02.000Z" });
    expect(staff).toEqual([
      {
        channel: "resources/staff",
        type: "created",
        payload: { ids: ["u1"] },
        date: new Date("2026-01-01T00:00:00.000Z"),
      },
    ]);
    expect(lines.map((e) => [e.channel, e.type, e.payload.ids])).toEqual([
      ["resources/lines", "updated", ["l1", "l2"]],
    ]);

    // Fewer resources: the stream is reopened for the rest; none left: closed.
    live.unsubscribe(b);
    await settle();
    expect(open().map((s) => s.params.get("resources"))).toEqual(["lines"]);
    live.unsubscribe(a);
    await settle();
    expect(open()).toEqual([]);
  });

  it("after an error, reopens with a freshly minted token", async () => {
    const { live, tokens } = provider();
    const sub: unknown = live.subscribe({ channel: "resources/plans", types: ["*"], callback: () => {} });
    await settle();
    const first = open()[0]!;
    first.onerror?.(new Event("error"));
    expect(first.closed).toBe(true);
    await vi.waitFor(() => expect(open()).toHaveLength(1));
    expect(open()[0]!.params.get("token")).toBe("token-2");
    expect(tokens).toEqual([false, true]);
    // Events of the closed stream are ignored.
    let heard = 0;
    live.subscribe({ channel: "resources/plans", types: ["*"], callback: () => heard++ });
    first.emit({ resource: "plans", type: "updated", ids: ["p"], at: "2026-01-01T00:00:00.000Z" });
    expect(heard).toBe(0);
    live.unsubscribe(sub);
  });

  it("ignores channels that are not resources", () => {
    const { live } = provider();
    expect(live.subscribe({ channel: "custom", types: ["*"], callback: () => {} })).toBeNull();
    live.unsubscribe(null);
  });
});
