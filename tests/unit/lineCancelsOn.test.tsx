import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLocale } from "../../src/i18n";
import type { Line } from "../../src/resources/lines";
import type { Home, HomeLine } from "../../src/resources/usage";
import { SubscriberLinePage } from "../../src/pages/lines/SubscriberLinePage";
import { HomeLines } from "../../src/pages/home/HomeLines";
import { TONES } from "../../src/components/statusTones";
import { renderWithRefine } from "../support/renderWithRefine";

// A line on its way out (issue 28): the subscriber's line page and its Home card say the day it is
// cancelled, in the reader's language and a warning tone, instead of a plain "Active", and Manage
// offers "Keep this line" instead of "Cancel line". A member's card shows no price (GET /home sends none).

const LINE_ID = "11111111-1111-4111-8111-111111111111";
const ACCOUNT_ID = "22222222-2222-4222-8222-222222222222";

const line = (over: Partial<Line> = {}): Line => ({
  id: LINE_ID,
  accountId: ACCOUNT_ID,
  accountName: "Alex Rivera",
  accountType: "postpaid",
  msisdn: "+12025550102",
  iccid: "8901410000000000102",
  simType: "physical",
  planId: "33333333-3333-4333-8333-333333333333",
  planName: "Postpaid Extra 50 GB",
  planTranslations: {},
  status: "active",
  suspendReason: null,
  cycleDay: 12,
  graceEndsOn: null,
  numberLocked: false,
  portOutPinExpiresAt: null,
  payAsYouGo: true,
  dataCapMb: null,
  cancelsOn: null,
  cancellationScheduled: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});
const cancelling = () => line({ cancelsOn: "2026-12-12", cancellationScheduled: true });

function renderLinePage(record: Line) {
  const custom = vi.fn(({ url }: { url: string }) =>
    Promise.resolve({ data: url.includes("/accounts/") ? { accountId: ACCOUNT_ID, pool: null, lines: [] } : [] }),
  );
  renderWithRefine(<SubscriberLinePage id={LINE_ID} />, {
    identity: { uid: "demo-alex", role: "subscriber" },
    data: { getOne: vi.fn(() => Promise.resolve({ data: record })), custom },
    can: () => true,
  });
}

const manageEntries = async () => {
  const manage = await screen.findByRole("region", { name: /^(Manage|Gestionar)$/ });
  return within(manage)
    .getAllByRole("button")
    .map((b) => b.querySelector("strong")?.textContent);
};

const homeLine = (over: Partial<HomeLine> = {}): HomeLine => ({
  id: LINE_ID,
  msisdn: "+12025550102",
  status: "active",
  accountId: ACCOUNT_ID,
  accountType: "postpaid",
  plan: { id: "p", name: "Postpaid Extra 50 GB", translations: {}, price: { amount: 6500, currency: "USD" } },
  daysLeft: 8,
  meters: [],
  ...over,
});
const renderHome = (home: Home) => render(<HomeLines home={home} navigate={() => {}} />);

afterEach(() => setLocale("en", { remember: false }));

describe("the subscriber's line page", () => {
  it("a line with nothing scheduled is Active and offers Cancel line", async () => {
    renderLinePage(line());
    expect((await screen.findByTestId("line-status")).textContent).toBe("Active");
    const entries = await manageEntries();
    expect(entries).toContain("Cancel line");
    expect(entries).not.toContain("Keep this line");
    expect(screen.queryByTestId("line-cancels-on")).toBeNull();
  });

  it("a line to be cancelled says the day in a warning tone and offers Keep this line instead", async () => {
    renderLinePage(cancelling());
    const badge = await screen.findByTestId("line-status");
    expect(badge.textContent).toBe("Cancels on Dec 12, 2026");
    expect(badge.style.color).toBe(hexToRgb(TONES.warning.color));
    expect(screen.getByTestId("line-cancels-on").textContent).toContain("Keep this line");
    const entries = await manageEntries();
    expect(entries).toContain("Keep this line");
    expect(entries).not.toContain("Cancel line");
  });

  it("in Spanish", async () => {
    setLocale("es", { remember: false });
    renderLinePage(cancelling());
    expect((await screen.findByTestId("line-status")).textContent).toMatch(/^Se da de baja el 12 dic 2026$/);
    const entries = await manageEntries();
    expect(entries).toContain("Conservar esta línea");
    expect(entries).not.toContain("Dar de baja la línea");
  });
});

describe("the line card on Home", () => {
  it("the holder's card: the plan's price, and the day a scheduled cancellation ends the line, not a renewal", () => {
    const meters: HomeLine["meters"] = [
      {
        type: "data",
        used: 100,
        allowance: 1024,
        unit: "MB",
        asOf: null,
        cycleStart: "2026-11-12",
        cycleEnd: "2026-12-12",
        capped: false,
        charged: { amount: 0, currency: "USD" },
      },
    ];
    renderHome({ lines: [homeLine({ cancelsOn: "2026-12-12", meters })], accounts: [] });
    const card = screen.getByTestId("line-card");
    expect(card.textContent).toContain("$65.00/month");
    expect(within(card).getByTestId("line-card-status").textContent).toBe("Cancels on Dec 12, 2026");
    expect(within(card).getByTestId("cycle-left").textContent).toBe(
      "8 days left in this cycle · the line is cancelled on Dec 12, 2026",
    );
  });

  it("a suspended line keeps its state in front of the day", () => {
    setLocale("es", { remember: false });
    renderHome({ lines: [homeLine({ status: "suspended", cancelsOn: "2026-12-12" })], accounts: [] });
    expect(screen.getByTestId("line-card-status").textContent).toMatch(/^Suspendida · Se da de baja el 12 dic 2026$/);
  });

  it("a member's card: the plan by name, no price and no money anywhere", () => {
    renderHome({
      lines: [
        homeLine({
          plan: { id: "p", name: "Postpaid Extra 50 GB", translations: {} },
          status: "grace",
          grace: { endsOn: "2026-12-27" },
        }),
      ],
      accounts: [],
    });
    const card = screen.getByTestId("line-card");
    expect(card.textContent).toContain("Postpaid Extra 50 GB");
    expect(card.textContent).not.toMatch(/\$|\/month/);
    expect(within(card).getByTestId("line-grace").textContent).toBe(
      "Grace period until Dec 27, 2026: the plan renews as soon as the account's balance covers it.",
    );
  });
});

/** The colour as the DOM gives it back ("#612500" → "rgb(97, 37, 0)"). */
function hexToRgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}
