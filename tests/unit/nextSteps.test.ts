import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { nextStepsOf } from "../../src/pages/home/NextSteps";
import { freshness } from "../../src/components/usage/LineMeters";
import type { Home, HomeLine, Meter } from "../../src/resources/usage";

const usd = (amount: number) => ({ amount, currency: "USD" });
const meter = (type: Meter["type"], used: number, allowance: number | null): Meter => ({
  type,
  used,
  allowance,
  unit: type === "data" ? "MB" : type === "voice" ? "minutes" : "messages",
  asOf: null,
  cycleStart: "2026-11-05",
  cycleEnd: "2026-12-05",
  capped: false,
  charged: usd(0),
});
const line = (
  id: string,
  accountId: string,
  price: number,
  dataUsed: number,
  status: HomeLine["status"] = "active",
): HomeLine => ({
  id,
  msisdn: id === "l1" ? "+12025550101" : "+12025550102",
  status,
  accountId,
  accountType: accountId === "pre" ? "prepaid" : "postpaid",
  plan: { id: "p", name: "Plan", translations: {}, price: usd(price) },
  daysLeft: 8,
  meters: [meter("data", dataUsed, 15_360), meter("voice", 10, null)],
});

describe("the home's next steps", () => {
  afterEach(() => setLocale("en", { remember: false }));

  it("asks for nothing when the bills are paid, the balance covers the renewal and data is left", () => {
    const home: Home = {
      accounts: [
        { id: "pre", type: "prepaid", balance: usd(4000) },
        { id: "post", type: "postpaid", amountDue: usd(0) },
      ],
      lines: [line("l1", "pre", 3500, 100), line("l2", "post", 6500, 100)],
    };
    expect(nextStepsOf(home)).toEqual([]);
  });

  it("puts an overdue bill first with Pay now leading to its pay dialog, then the top-up the renewal needs, then data", () => {
    const home: Home = {
      accounts: [
        { id: "pre", type: "prepaid", balance: usd(1000) },
        {
          id: "post",
          type: "postpaid",
          amountDue: usd(7036),
          overdueBill: { id: "bill-1", total: usd(7036), dueOn: "2026-11-25" },
        },
      ],
      lines: [line("l1", "pre", 3500, 15_360), line("l2", "post", 6500, 12_800)],
    };
    const steps = nextStepsOf(home);
    expect(steps.map((s) => [s.tone, s.action, s.to])).toEqual([
      ["bad", "Pay now", "/money?pay=bill-1"],
      ["warning", "Top up", "/top-up"],
      ["bad", "Buy data", "/shop?line=l1"],
      ["warning", "Buy data", "/shop?line=l2"],
    ]);
    expect(steps[0]!.text).toBe("Your bill of $70.36 was due on Nov 25, 2026.");
    // $35.00 to renew with $10.00 on the balance: $25.00 missing, by the cycle's end.
    expect(steps[1]!.text).toBe("Your plan renews on Dec 5, 2026: top up at least $25.00 to cover it.");
    expect(steps[2]!.text).toBe("You have used all your data on (202) 555-0101.");
    expect(steps[3]!.text).toBe("You have used 83 % of your data on (202) 555-0102.");
  });

  it("does not count a suspended line's plan in the renewal, and speaks Spanish", () => {
    setLocale("es", { remember: false });
    const home: Home = {
      accounts: [{ id: "pre", type: "prepaid", balance: usd(1000) }],
      lines: [line("l1", "pre", 3500, 0, "suspended")],
    };
    expect(nextStepsOf(home)).toEqual([]);
    const short: Home = { ...home, lines: [line("l1", "pre", 3500, 0)] };
    expect(nextStepsOf(short)[0]!.action).toBe("Recargar");
    expect(nextStepsOf(short)[0]!.text).toContain("recarga al menos");
  });

  it("a line in grace asks for the amount missing to renew and until when, offers no data, and goes once a top-up covers it", () => {
    const grace: HomeLine = {
      ...line("l1", "pre", 3500, 0, "grace"),
      meters: [meter("data", 0, 0)],
      grace: { endsOn: "2026-12-27", price: usd(2500) },
    };
    const home: Home = { accounts: [{ id: "pre", type: "prepaid", balance: usd(1000) }], lines: [grace] };
    const steps = nextStepsOf(home);
    expect(steps.map((s) => [s.tone, s.action, s.to])).toEqual([["bad", "Top up", "/top-up"]]);
    expect(steps[0]!.text).toBe(
      "$15.00 missing to renew your plan on (202) 555-0101, until Dec 27, 2026. Until then only top-ups, emergency and incoming calls work.",
    );
    expect(nextStepsOf({ ...home, accounts: [{ id: "pre", type: "prepaid", balance: usd(2500) }] })).toEqual([]);
    setLocale("es", { remember: false });
    expect(nextStepsOf(home)[0]!.text).toContain("Faltan");
  });
});

describe("the home's next steps for lines on their way out and for members", () => {
  afterEach(() => setLocale("en", { remember: false }));

  it("a line to be cancelled at the end of its cycle does not renew, so its plan asks for no top-up", () => {
    const home: Home = {
      accounts: [{ id: "pre", type: "prepaid", balance: usd(1000) }],
      lines: [{ ...line("l1", "pre", 3500, 0), cancelsOn: "2026-12-05" }],
    };
    expect(nextStepsOf(home)).toEqual([]);
  });

  it("a member's home (no prices, no account money) asks for no money", () => {
    const member: HomeLine = {
      ...line("l1", "pre", 3500, 0, "grace"),
      plan: { id: "p", name: "Plan", translations: {} },
      grace: { endsOn: "2026-12-27" },
      meters: [meter("data", 0, 0)],
    };
    expect(nextStepsOf({ accounts: [], lines: [member] })).toEqual([]);
  });
});

describe("a meter's freshness", () => {
  const now = new Date("2026-11-27T15:00:00");
  it("says minutes while usage keeps coming, and the quiet time once it stopped", () => {
    expect(freshness("data", new Date("2026-11-27T14:59:40").toISOString(), now)).toBe("Updated just now");
    expect(freshness("data", new Date("2026-11-27T14:58:00").toISOString(), now)).toBe("Updated 2 min ago");
    expect(freshness("sms", new Date("2026-11-27T03:28:00").toISOString(), now)).toMatch(/^No texts since 3:28\sAM$/);
    expect(freshness("voice", new Date("2026-11-25T03:28:00").toISOString(), now)).toMatch(
      /^No calls since Nov 25, 2026, 3:28\sAM$/,
    );
  });
});
