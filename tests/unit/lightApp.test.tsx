import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Home } from "../../src/resources/usage";
import type { SessionUser } from "../../src/providers/session";

// The light app (src/pages/home/LightApp.tsx) stands in for the portal on a subscriber's phone: it
// must show what the portal's home shows, keep the meters and the bell live over the one SSE stream,
// and hand every other step to the portal. The backend is answered at fetch; the SSE stream is a
// stand-in EventSource the test pushes events through.
const streams = vi.hoisted(() => {
  class FakeEventSource {
    static opened: FakeEventSource[] = [];
    onopen: ((event: Event) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    listeners: ((event: MessageEvent<string>) => void)[] = [];
    constructor(readonly url: string) {
      FakeEventSource.opened.push(this);
    }
    addEventListener(_type: "resource", listener: (event: MessageEvent<string>) => void) {
      this.listeners.push(listener);
    }
    close() {}
    emit(resource: string) {
      const data = JSON.stringify({ resource, type: "updated", ids: [], at: new Date().toISOString() });
      for (const listener of this.listeners) listener(new MessageEvent("resource", { data }));
    }
  }
  (globalThis as { EventSource?: unknown }).EventSource = FakeEventSource;
  return FakeEventSource;
});
vi.mock("../../src/providers/session", () => ({
  currentIdToken: () => Promise.resolve("token"),
  currentSessionUser: () => Promise.resolve(null),
}));

// jsdom lays nothing out: the chart's holder keeps its first width.
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
  observe() {}
  disconnect() {}
};
// uPlot draws on a canvas jsdom does not have: the chart stands in as its days (the e2e suite draws the real one).
vi.mock("../../src/pages/usage/DailyUsageChart", () => ({
  DailyUsageChart: ({ usage }: { usage: { days: unknown[] } }) => (
    <figure data-testid="daily-usage-chart">{usage.days.length} days</figure>
  ),
}));

const { LightApp } = await import("../../src/pages/home/LightApp");
const { setLocale } = await import("../../src/i18n");

const ALEX: SessionUser = {
  uid: "demo-alex",
  email: "alex@example.com",
  name: "Alex Rivera",
  role: "subscriber",
  operator: "ATT",
};
const LINE_ID = "11111111-1111-4111-8111-111111111111";
const ACCOUNT_ID = "22222222-2222-4222-8222-222222222222";
const POSTPAID_ID = "88888888-8888-4888-8888-888888888888";
const homeWith = (dataUsed: number): Home => ({
  lines: [
    {
      id: LINE_ID,
      msisdn: "+12025550101",
      status: "active",
      accountId: ACCOUNT_ID,
      accountType: "prepaid",
      plan: {
        id: "33333333-3333-4333-8333-333333333333",
        name: "Prepaid 15 GB",
        translations: { es: { name: "Prepago 15 GB" } },
        price: { amount: 3500, currency: "USD" },
      },
      daysLeft: 8,
      meters: [
        {
          type: "data",
          used: dataUsed,
          allowance: 15_360,
          unit: "MB",
          asOf: "2026-11-26T21:30:00.000Z",
          cycleStart: "2026-11-05",
          cycleEnd: "2026-12-05",
          capped: false,
          charged: { amount: 0, currency: "USD" },
        },
        {
          type: "voice",
          used: 80,
          allowance: null,
          unit: "minutes",
          asOf: null,
          cycleStart: "2026-11-05",
          cycleEnd: "2026-12-05",
          capped: false,
          charged: { amount: 0, currency: "USD" },
        },
      ],
    },
  ],
  accounts: [{ id: ACCOUNT_ID, type: "prepaid", balance: { amount: 4000, currency: "USD" } }],
});

const plan = (id: string, name: string, price: number, dataMb: number | null) => ({
  id,
  name,
  kind: "prepaid",
  status: "active",
  sharing: "individual",
  price: { amount: price, currency: "USD" },
  dataMb,
  voiceMinutes: null,
  sms: null,
  features: ["5G"],
  overage: { data: null, voice: null, sms: null },
});
const PLANS = [
  plan(homeWith(0).lines[0]!.plan.id, "Prepaid 15 GB", 3500, 15_360),
  plan("55555555-5555-4555-8555-555555555555", "Prepaid Unlimited", 5000, null),
];
const PASS = {
  id: "66666666-6666-4666-8666-666666666666",
  name: "1 GB data pass",
  kind: "data",
  roamingZone: null,
  price: { amount: 1000, currency: "USD" },
  dataMb: 1024,
  validityDays: 7,
  status: "active",
};
const ACTIVE_PASS = {
  id: "77777777-7777-4777-8777-777777777777",
  name: "Europe pass, 7 days",
  dataMb: 2048,
  autoRenew: true,
  expiresAt: "2026-12-01T00:00:00.000Z",
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
let home: Home;
let unread: number;
let homeStatus: number;
const requests: string[] = [];

beforeEach(() => {
  home = homeWith(4096);
  unread = 2;
  homeStatus = 200;
  requests.length = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string) => {
      const path = new URL(url, "http://portal.test").pathname;
      requests.push(path);
      if (path.endsWith("/home"))
        return Promise.resolve(
          homeStatus === 200
            ? json(home)
            : json(
                { type: "about:blank", title: "Unavailable", status: homeStatus, detail: "The database is down." },
                homeStatus,
              ),
        );
      if (path.endsWith("/notifications")) return Promise.resolve(json({ data: [], total: unread }));
      if (path.endsWith("/ledger-entries"))
        return Promise.resolve(
          json({
            data: [
              {
                id: "44444444-4444-4444-8444-444444444444",
                accountId: ACCOUNT_ID,
                kind: "top_up",
                amount: { amount: 2500, currency: "USD" },
                balanceAfter: { amount: 4000, currency: "USD" },
                reason: "Voucher redeemed",
                actorRole: "subscriber",
                referenceType: "voucher",
                referenceId: null,
                createdAt: "2026-11-20T10:00:00.000Z",
              },
            ],
            total: 1,
          }),
        );
      if (path.endsWith("/invoices")) return Promise.resolve(json({ data: [], total: 0 }));
      if (path.endsWith("/plans")) return Promise.resolve(json({ data: PLANS, total: PLANS.length }));
      if (path.endsWith(`/lines/${LINE_ID}/add-ons`)) return Promise.resolve(json([ACTIVE_PASS]));
      if (path.endsWith("/add-ons")) return Promise.resolve(json({ data: [PASS], total: 1 }));
      if (path.endsWith(`/lines/${LINE_ID}/usage-daily`))
        return Promise.resolve(
          json({
            cycleStart: "2026-11-05",
            cycleEnd: "2026-12-05",
            days: [{ day: "2026-11-20", data: 300, voice: 4, sms: 1 }],
          }),
        );
      return Promise.resolve(json({}, 404));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  setLocale("en", { remember: false });
});

function renderHome() {
  history.replaceState(null, "", "/");
  const leave = vi.fn();
  const signOut = vi.fn();
  render(<LightApp user={ALEX} leave={leave} signOut={signOut} />);
  return { leave, signOut };
}
const card = () => screen.getByTestId("line-card");
const stream = () => streams.opened.at(-1)!;

describe("the light home", () => {
  it("shows the greeting, each line with its plan, money and meters, and the unread count on the bell", async () => {
    renderHome();
    screen.getByRole("heading", { level: 1, name: "Hello, Alex" });
    await waitFor(() => expect(screen.getByTestId("line-card")).toBeTruthy());
    expect(card().getAttribute("aria-label")).toBe("Line (202) 555-0101");
    within(card()).getByRole("link", { name: "(202) 555-0101" });
    within(card()).getByText("Active");
    within(card()).getByText("Prepaid 15 GB");
    expect(within(card()).getByTestId("account-money").textContent).toBe("Balance: $40.00 · Top up");
    expect(within(card()).getByTestId("meter-data-used").textContent).toBe("4 GB of 15 GB");
    expect(within(card()).getByRole("progressbar", { name: "Data: 4 GB of 15 GB" }).getAttribute("aria-valuenow")).toBe(
      "26.7",
    );
    expect(within(card()).getByTestId("meter-voice-used").textContent).toBe("80 min used · unlimited");
    within(card()).getByText("8 days left in this cycle · renews Dec 5, 2026");
    await waitFor(() =>
      expect(screen.getByTestId("notification-bell").getAttribute("aria-label")).toBe("Notifications: 2 unread"),
    );
  });

  it("counts new usage and new notices when the live stream says so, without a reload", async () => {
    renderHome();
    await waitFor(() => expect(card()).toBeTruthy());
    await waitFor(() => expect(streams.opened.length).toBeGreaterThan(0));
    expect(stream().url).toContain("resources=meters%2Cnotifications");
    home = homeWith(12_800);
    stream().emit("meters");
    await waitFor(() => expect(within(card()).getByTestId("meter-data").getAttribute("data-used")).toBe("12800"));
    expect(within(card()).getByRole("progressbar").parentElement!.querySelector(".meter__track--high")).toBeTruthy();
    unread = 3;
    stream().emit("notifications");
    await waitFor(() => expect(screen.getByTestId("notification-bell").getAttribute("data-unread")).toBe("3"));
  });

  it("hands every other step to the portal: a line, top-up, the bell, each tab of the bar; a modified click stays a plain link", async () => {
    const { leave } = renderHome();
    await waitFor(() => expect(card()).toBeTruthy());
    const number = within(card()).getByRole("link", { name: "(202) 555-0101" });
    expect(number.getAttribute("href")).toBe(`/lines/show/${LINE_ID}`);
    fireEvent.click(number);
    expect(leave).toHaveBeenLastCalledWith(`/lines/show/${LINE_ID}`);
    fireEvent.click(within(card()).getByRole("link", { name: "Top up" }));
    expect(leave).toHaveBeenLastCalledWith("/top-up");
    fireEvent.click(screen.getByTestId("notification-bell"));
    expect(leave).toHaveBeenLastCalledWith("/notifications");
    // The five destinations, one tap each, home marked as where the person is.
    const tabs = within(screen.getByRole("navigation", { name: "Main" })).getAllByRole("link");
    expect(tabs.map((tab) => tab.textContent)).toEqual(["Home", "Usage", "Money", "Shop", "Account"]);
    expect(tabs[0]!.getAttribute("aria-current")).toBe("page");
    fireEvent.click(tabs[3]!); // Shop: drawn here too, as every destination is
    screen.getByRole("heading", { level: 1, name: "Shop" });
    expect(leave).toHaveBeenLastCalledWith("/notifications");
    expect(screen.queryByRole("button", { name: "Open menu" })).toBeNull();
    leave.mockClear();
    fireEvent.click(number, { ctrlKey: true }); // a new tab: the browser's, not ours
    expect(leave).not.toHaveBeenCalled();
  });

  it("speaks the language picked in its header, and signs out from it", async () => {
    const { signOut } = renderHome();
    await waitFor(() => expect(card()).toBeTruthy());
    fireEvent.change(screen.getByRole("combobox", { name: "Language" }), { target: { value: "es" } });
    await screen.findByRole("heading", { name: "Hola, Alex" });
    within(card()).getByText("Activa", { exact: false });
    fireEvent.click(screen.getByRole("button", { name: "Cerrar sesión" }));
    expect(signOut).toHaveBeenCalledOnce();
  });

  it("says why when the lines cannot be loaded", async () => {
    homeStatus = 503;
    renderHome();
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Your lines could not be loaded: The database is down.",
    );
    expect(screen.queryByTestId("line-card")).toBeNull();
  });
});

describe("Usage and Account on the light app", () => {
  const tab = (name: string) => within(screen.getByRole("navigation")).getByRole("link", { name });

  it("moves between Home, Usage and Account without the portal, with history entries Back returns through", async () => {
    const { leave } = renderHome();
    await waitFor(() => expect(card()).toBeTruthy());

    fireEvent.click(tab("Usage"));
    screen.getByRole("heading", { level: 1, name: "Usage" });
    expect(location.pathname).toBe("/usage");
    expect(tab("Usage").getAttribute("aria-current")).toBe("page");
    const line = await screen.findByRole("region", { name: "(202) 555-0101 · Prepaid 15 GB" });
    await waitFor(() => expect(within(line).getByTestId("meter-data-used").textContent).toBe("4 GB of 15 GB"));
    // The chart's card comes once the lines are painted (pageDrawn.ts).
    const days = await screen.findByRole("region", { name: "Data per day this cycle" });
    expect((await within(days).findByTestId("daily-usage-chart")).textContent).toBe("1 days");
    // More comes with the declarations, after the page: the usage history, declared for this place.
    const more = await screen.findByRole("region", { name: "More" });
    expect(
      within(more)
        .getByRole("link", { name: /Usage history/ })
        .getAttribute("href"),
    ).toBe("/usage-records");
    await waitFor(() => expect(document.title).toBe("Usage · AT&T self-service"));

    fireEvent.click(tab("Account"));
    screen.getByRole("heading", { level: 1, name: "Account" });
    expect(within(screen.getByRole("region", { name: "Signed in as" })).getByText("Alex Rivera")).toBeTruthy();
    const people = screen.getByRole("link", { name: /People on your account/ });
    expect(people.getAttribute("href")).toBe("/account/people");
    const accountMore = await screen.findByRole("region", { name: "More" });
    within(accountMore).getByRole("link", { name: /Damaged, lost or stolen phone/ });
    within(accountMore).getByRole("link", { name: /Help requests/ });
    expect(leave).not.toHaveBeenCalled();

    history.back();
    await screen.findByRole("heading", { level: 1, name: "Usage" });
    history.back();
    await screen.findByRole("heading", { level: 1, name: "Hello, Alex" });
    expect(leave).not.toHaveBeenCalled();

    // A task of Account is the portal's: the people on the account, a declared resource.
    fireEvent.click(tab("Account"));
    fireEvent.click(screen.getByRole("link", { name: /People on your account/ }));
    expect(leave).toHaveBeenLastCalledWith("/account/people");
  });

  it("speaks Spanish on Usage and Account too", async () => {
    renderHome();
    fireEvent.change(screen.getByRole("combobox", { name: "Language" }), { target: { value: "es" } });
    fireEvent.click(tab("Consumo"));
    screen.getByRole("heading", { level: 1, name: "Consumo" });
    await screen.findByRole("region", { name: "Datos por día en este ciclo" });
    fireEvent.click(tab("Cuenta"));
    screen.getByRole("link", { name: /Personas en tu cuenta/ });
    await screen.findByRole("region", { name: "Más" });
  });

  it("says why when a line's days cannot be loaded, and keeps its meters", async () => {
    vi.mocked(fetch).mockImplementation((url) => {
      const path = new URL(url as string, "http://portal.test").pathname;
      if (path.endsWith("/usage-daily"))
        return Promise.resolve(
          json({ type: "about:blank", title: "Unavailable", status: 503, detail: "Try again soon." }, 503),
        );
      if (path.endsWith("/home")) return Promise.resolve(json(home));
      return Promise.resolve(json({ data: [], total: 0 }));
    });
    renderHome();
    fireEvent.click(tab("Usage"));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The data per day could not be loaded: Try again soon.",
    );
    await screen.findByRole("region", { name: "(202) 555-0101 · Prepaid 15 GB" });
  });
});

describe("Money on the light app", () => {
  const tab = (name: string) => within(screen.getByRole("navigation")).getByRole("link", { name });

  it("shows the balance and the latest movements in words; Top up hands over to the portal", async () => {
    const { leave } = renderHome();
    fireEvent.click(tab("Money"));
    screen.getByRole("heading", { level: 1, name: "Money" });
    expect(location.pathname).toBe("/money");
    const balance = await screen.findByRole("region", { name: "Your balance" });
    within(balance).getByText("$40.00");
    const movements = await within(balance).findByTestId("movements");
    expect(movements.textContent).toBe("Voucher · Nov 20, 2026+$25.00");
    // Cards pay top-ups too; bills are a postpaid account's, and this person holds none.
    const more = await screen.findByRole("region", { name: "More" });
    within(more).getByRole("link", { name: /Payment methods/ });
    expect(within(more).queryByRole("link", { name: /All bills/ })).toBeNull();
    expect(leave).not.toHaveBeenCalled();
    fireEvent.click(within(balance).getByRole("link", { name: "Top up" }));
    expect(leave).toHaveBeenLastCalledWith("/top-up");
  });

  it("offers every bill under More to a person who holds a postpaid account", async () => {
    home = {
      ...home,
      accounts: [...home.accounts, { id: POSTPAID_ID, type: "postpaid", amountDue: { amount: 0, currency: "USD" } }],
    };
    renderHome();
    fireEvent.click(tab("Money"));
    await screen.findByRole("region", { name: "Your bills" });
    const more = await screen.findByRole("region", { name: "More" });
    within(more).getByRole("link", { name: /All bills/ });
  });
});

describe("Shop on the light app", () => {
  it("shows the plans to compare, the passes on sale and the line's add-ons; each choice opens its dialog in the portal", async () => {
    const { leave } = renderHome();
    fireEvent.click(within(screen.getByRole("navigation")).getByRole("link", { name: "Shop" }));
    screen.getByRole("heading", { level: 1, name: "Shop" });
    expect(location.pathname).toBe("/shop");
    const plans = await screen.findAllByTestId("plan-card");
    expect(plans.map((card) => card.getAttribute("aria-label"))).toEqual(["Prepaid 15 GB", "Prepaid Unlimited"]);
    within(plans[0]!).getByText("Your plan");
    expect(within(plans[0]!).queryByRole("button")).toBeNull();
    within(plans[1]!).getByText("$50.00/month");
    const pass = await screen.findByTestId("add-on-card");
    within(pass).getByText("$10.00");
    const active = await screen.findByTestId("active-add-on");
    within(active).getByText("Europe pass, 7 days");
    expect(leave).not.toHaveBeenCalled();
    fireEvent.click(within(plans[1]!).getByRole("button", { name: "Choose Prepaid Unlimited" }));
    expect(leave).toHaveBeenLastCalledWith(`/shop?line=${LINE_ID}&plan=55555555-5555-4555-8555-555555555555`);
    fireEvent.click(within(pass).getByRole("button", { name: "Buy 1 GB data pass" }));
    expect(leave).toHaveBeenLastCalledWith(`/shop?line=${LINE_ID}&buy=${PASS.id}`);
    fireEvent.click(within(active).getByRole("button", { name: "Stop renewal of Europe pass, 7 days" }));
    expect(leave).toHaveBeenLastCalledWith(`/shop?line=${LINE_ID}&stop=${ACTIVE_PASS.id}`);
  });

  it("offers no plan change or pass for a line it may not spend on (a member's), and still lists its add-ons", async () => {
    const member = homeWith(0);
    delete member.lines[0]!.plan.price;
    home = member;
    renderHome();
    fireEvent.click(within(screen.getByRole("navigation")).getByRole("link", { name: "Shop" }));
    await screen.findByTestId("active-add-on");
    expect(screen.queryByTestId("plan-card")).toBeNull();
    expect(screen.queryByTestId("add-on-card")).toBeNull();
    expect(screen.queryByRole("button", { name: /Stop renewal/ })).toBeNull();
  });
});
