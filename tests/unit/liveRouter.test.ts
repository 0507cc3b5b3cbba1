import type { LiveProvider } from "@refinedev/core";
import { describe, expect, it, vi } from "vitest";
import { routeLive, servable } from "../../src/providers/dataSources";

// The live provider in front of the backend's SSE and the Realtime Database's child events.
function recorder(name: string) {
  const calls: string[] = [];
  const provider: LiveProvider = {
    subscribe: vi.fn(({ channel }) => {
      calls.push(`${name} subscribe ${channel}`);
      return `${name}:${channel}`;
    }),
    unsubscribe: vi.fn((handle) => void calls.push(`${name} unsubscribe ${handle}`)),
  };
  return { calls, provider };
}

const sources: Record<string, "backend" | "rtdb"> = { lines: "backend", "usage-notes": "rtdb" };
const params = (channel: string) => ({ channel, types: ["*"], callback: () => {} });

describe("routeLive", () => {
  it("sends rtdb channels to the database and every other one to the backend", async () => {
    const backend = recorder("backend");
    const rtdb = recorder("rtdb");
    const live = routeLive({
      backend: backend.provider,
      rtdb: () => Promise.resolve(rtdb.provider),
      sourceOf: (n) => sources[n],
    });
    const a: unknown = live.subscribe(params("resources/lines"));
    const b: unknown = live.subscribe(params("resources/usage-notes"));
    const c: unknown = live.subscribe(params("resources/unknown"));
    await vi.waitFor(() => expect(rtdb.calls).toHaveLength(1));
    live.unsubscribe(a);
    live.unsubscribe(b);
    live.unsubscribe(c);
    await vi.waitFor(() => expect(rtdb.calls).toHaveLength(2));
    expect(backend.calls).toEqual([
      "backend subscribe resources/lines",
      "backend subscribe resources/unknown",
      "backend unsubscribe backend:resources/lines",
      "backend unsubscribe backend:resources/unknown",
    ]);
    expect(rtdb.calls).toEqual(["rtdb subscribe resources/usage-notes", "rtdb unsubscribe rtdb:resources/usage-notes"]);
  });

  it("never subscribes to the database when the page unsubscribed before it loaded", async () => {
    const rtdb = recorder("rtdb");
    let load!: (p: LiveProvider) => void;
    const live = routeLive({
      backend: recorder("backend").provider,
      rtdb: () => new Promise((resolve) => (load = resolve)),
      sourceOf: (n) => sources[n],
    });
    live.unsubscribe(live.subscribe(params("resources/usage-notes")));
    load(rtdb.provider);
    await new Promise((r) => setTimeout(r, 0));
    expect(rtdb.calls).toEqual([]);
  });
});

describe("servable", () => {
  it("serves backend resources always and rtdb ones only when the build names a database", () => {
    expect(servable({ source: "backend" })).toBe(true);
    expect(servable({ source: "rtdb" })).toBe(false); // the test build has no VITE_FIREBASE_DATABASE_URL
  });
});
