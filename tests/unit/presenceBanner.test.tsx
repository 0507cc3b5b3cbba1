import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import { PresenceBanner, PresenceNotice } from "../../src/pages/care/PresenceBanner";
import type { PresenceSource } from "../../src/pages/care/usePresence";
import { joinPresence } from "../../src/providers/rtdb/presence";
import { rtdbRules } from "../../src/providers/rtdb/rtdbRules";
import { resources } from "../../src/resources";
import { presencePlace } from "../../src/resources/presence";
import { createRtdbStandInServer, type RtdbStandInServer } from "../support/rtdbStandIn";

const OPERATOR = "op-a";
const viewer = (uid: string, name: string, since = 0) => ({ uid, name, since });

afterEach(() => setLocale("en"));

describe("the presence notice", () => {
  it.each([
    ["en", ["Maria"], "Maria is also here"],
    ["en", ["Maria", "Ken"], "Maria and Ken are also here"],
    ["en", ["Maria", "Ken", "Ana"], "Maria, Ken, and Ana are also here"],
    ["es", ["Maria"], "Maria también está aquí"],
    ["es", ["Maria", "Ken"], "Maria y Ken también están aquí"],
    ["es", ["Maria", "Ken", "Ana"], "Maria, Ken y Ana también están aquí"],
  ] as const)("in %s, for %j: %s", (locale, names, text) => {
    setLocale(locale);
    render(<PresenceNotice others={names.map((name, i) => viewer(`uid-${i}`, name))} />);
    expect(screen.getByRole("status").textContent).toBe(text);
  });

  it("says nothing while nobody else is here", () => {
    const { container } = render(<PresenceNotice others={[]} />);
    expect(container.textContent).toBe("");
  });
});

/** Ken's portal on a stand-in database shared with Maria's, under the generated rules. */
function kenOn(server: RtdbStandInServer, role: "agent" | "admin" = "agent"): PresenceSource {
  const db = server.connect({ uid: "uid-ken", token: { role, operator: OPERATOR } });
  return {
    port: () => Promise.resolve(db),
    viewer: () => Promise.resolve({ uid: "uid-ken", name: "Ken Ito", role, operator: OPERATOR }),
  };
}

describe("the presence banner on a page", () => {
  it("shows who else has the subscriber open, hides them once their connection drops, and leaves on unmount", async () => {
    const server = createRtdbStandInServer({ rules: rtdbRules(resources).rules });
    const mariaDb = server.connect({ uid: "uid-maria", token: { role: "agent", operator: OPERATOR } });
    const place = presencePlace("subscriber", "acc-1")!;
    joinPresence(mariaDb, {
      resource: "presence",
      operator: OPERATOR,
      place,
      viewer: { uid: "uid-maria", name: "Maria Lopez" },
      onOthers: () => {},
    });
    const source = kenOn(server);
    const view = render(<PresenceBanner kind="subscriber" id="acc-1" source={source} />);

    expect((await screen.findByTestId("presence-banner")).textContent).toBe("Maria Lopez is also here");
    expect(server.root()).toHaveProperty(["presence", OPERATOR, place, "uid-ken", "name"], "Ken Ito");

    act(() => mariaDb.goOffline());
    expect(screen.queryByTestId("presence-banner")).toBeNull();

    view.unmount();
    await vi.waitFor(() => expect(server.root()).toBeNull());
  });

  it("shows nothing to a subscriber, and never loads the database for them", async () => {
    const server = createRtdbStandInServer({ rules: rtdbRules(resources).rules });
    const port = vi.fn(() => Promise.resolve(server.connect(null)));
    const source: PresenceSource = {
      port,
      viewer: () => Promise.resolve({ uid: "uid-sam", name: "Sam", role: "subscriber", operator: OPERATOR }),
    };
    const { container } = render(<PresenceBanner kind="ticket" id="t-1" source={source} />);
    await act(async () => {});
    expect(container.textContent).toBe("");
    expect(port).not.toHaveBeenCalled();
  });

  it("with no Realtime Database in the build (the local default) it is quiet: no banner, no request, no console", async () => {
    const noise = [vi.spyOn(console, "warn"), vi.spyOn(console, "error")];
    const { container } = render(<PresenceBanner kind="subscriber" id="acc-1" />);
    await act(async () => {});
    expect(container.textContent).toBe("");
    for (const spy of noise) expect(spy).not.toHaveBeenCalled();
    for (const spy of noise) spy.mockRestore();
  });
});
