import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import Subscriber360Page from "../../src/pages/care/Subscriber360Page";
import { PagedSection } from "../../src/pages/care/sections/PagedSection";
import { renderWithRefine } from "../support/renderWithRefine";
import { objectContaining } from "../support/matchers";

// The subscriber 360's sections: each a PagedSection that asks for one page of its own data, and
// only once its panel is opened (the lines and tickets open with the page; the rest wait). The 360
// is per person (every account they hold) and, for an agent, keeps all but the tickets closed until
// the caller is verified (issue 27).
const ACCOUNT = "6f1c7a52-3f0e-4d7e-9d59-6a1f1b2a3c4d";
const PERSON = "2c9d4e61-7a3b-4f1e-8b2d-5e6f7a8b9c0d";
const LINE = "0b6a1d2e-8e7f-4b44-9a51-2a8d0c1e9f10";
/** The agent verified this caller a few minutes ago: the verification runs for 25 more minutes. */
const verifiedUntil = () => new Date(Date.now() + 25 * 60_000).toISOString();
const subscriber = {
  id: ACCOUNT,
  personId: PERSON,
  verifiedUntil: null as string | null,
  name: "Sam Chen",
  email: "sam@example.com",
  phone: "+12025550103",
  type: "prepaid",
  status: "active",
  lineCount: 1,
  lines: [],
  relevance: 1,
  createdAt: "2026-11-02T10:00:00.000Z",
  updatedAt: "2026-11-02T10:00:00.000Z",
};
const line = {
  id: LINE,
  msisdn: "+12025550103",
  iccid: "8901260000000000103",
  simType: "physical",
  status: "active",
  planName: "Prepaid 5 GB",
  suspendReason: null,
};

function renderAt(ui: React.ReactNode, path = "/", verified = { until: null as string | null }) {
  const held = { ...subscriber, verifiedUntil: verified.until };
  const account = { ...held, balance: { amount: 1250, currency: "USD" }, amountDue: null };
  return renderWithRefine(ui, {
    identity: { uid: "agent", role: "agent" },
    data: {
      getOne: vi.fn(({ resource }: { resource: string }) =>
        Promise.resolve({
          data: resource === "accounts" ? account : held,
        }),
      ),
      getList: vi.fn(({ resource }: { resource: string }) =>
        Promise.resolve(
          resource === "lines"
            ? { data: [line], total: 25 }
            : resource === "subscribers"
              ? { data: [held], total: 1 }
              : { data: [], total: 0 },
        ),
      ),
      // A line's meters are a list; the 360's paged sections answer a page.
      custom: vi.fn(({ url }: { url: string }) =>
        Promise.resolve({ data: url.endsWith("/meters") ? [] : { data: [], total: 0 } }),
      ),
    },
    path,
    routes: { "/subscribers/show/:id": ui, "/": ui },
  });
}

/** What the page lists for the person, not for a section: every account they hold, and their notes. */
const PERSON_LISTS = new Set(["subscribers", "interaction-notes"]);

/** The resources the sections listed (the page's own lists for the person left out). */
const listedResources = (dataProvider: ReturnType<typeof renderAt>) =>
  new Set(dataProvider.getList.mock.calls.map(([args]) => args.resource).filter((r) => !PERSON_LISTS.has(r)));

describe("PagedSection", () => {
  it("asks a resource's list for one page with the section's filters and sort, and the next page when asked", async () => {
    const dataProvider = renderAt(
      <PagedSection
        source={{
          resource: "lines",
          filters: [{ field: "accountId", operator: "eq", value: ACCOUNT }],
          sorters: [{ field: "msisdn", order: "asc" }],
        }}
        columns={[{ title: "Number", dataIndex: "msisdn" }]}
      />,
    );
    await screen.findByText("+12025550103");
    expect(dataProvider.getList).toHaveBeenCalledWith(
      objectContaining({
        resource: "lines",
        filters: [{ field: "accountId", operator: "eq", value: ACCOUNT }],
        sorters: [{ field: "msisdn", order: "asc" }],
        pagination: objectContaining({ currentPage: 1, pageSize: 10 }),
      }),
    );
    fireEvent.click(screen.getByTitle("2"));
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenCalledWith(
        objectContaining({
          resource: "lines",
          pagination: objectContaining({ currentPage: 2, pageSize: 10 }),
        }),
      ),
    );
  });

  it("asks nothing while it is not enabled, and a path of the API with the page when its source is one", async () => {
    const dataProvider = renderAt(
      <>
        <PagedSection enabled={false} source={{ resource: "usage-records" }} columns={[]} />
        <PagedSection source={{ path: `/subscribers/${ACCOUNT}/notifications` }} columns={[]} />
      </>,
    );
    await waitFor(() =>
      expect(dataProvider.custom).toHaveBeenCalledWith(
        objectContaining({
          url: `/api/v1/subscribers/${ACCOUNT}/notifications?page=1&pageSize=10`,
          method: "get",
        }),
      ),
    );
    expect(dataProvider.getList).not.toHaveBeenCalled();
  });
});

describe("the 360's sections load when opened", () => {
  it("the person's accounts and notes; until the caller is verified only the tickets load, the rest say verify first", async () => {
    const dataProvider = renderAt(<Subscriber360Page />, `/subscribers/show/${ACCOUNT}`);
    await screen.findByText("(202) 555-0103");
    expect(screen.getByTestId("caller-verification")).toBeTruthy();
    await waitFor(() => expect(listedResources(dataProvider)).toEqual(new Set(["tickets"])));
    // Every account of the person, found by the opened account's person.
    await waitFor(() =>
      expect(dataProvider.getList).toHaveBeenCalledWith(
        objectContaining({
          resource: "subscribers",
          filters: [{ field: "personId", operator: "eq", value: PERSON }],
        }),
      ),
    );
    expect(screen.getAllByTestId("verify-first").length).toBeGreaterThan(0);
    expect(screen.queryByTestId("caller-verified")).toBeNull();

    fireEvent.click(screen.getByTestId("section-money"));
    await waitFor(() => expect(screen.getAllByTestId("verify-first").length).toBeGreaterThan(1));
    expect(listedResources(dataProvider)).toEqual(new Set(["tickets"]));
    expect(dataProvider.custom).not.toHaveBeenCalled();
    expect(screen.queryByText("$12.50")).toBeNull();
  });

  it("once verified: lines and tickets at once; money (bills, ledger, balance) and usage only when their panels open", async () => {
    const dataProvider = renderAt(<Subscriber360Page />, `/subscribers/show/${ACCOUNT}`, { until: verifiedUntil() });
    await screen.findByText("(202) 555-0103");
    expect(await screen.findByTestId("caller-verified")).toBeTruthy();
    expect(screen.queryByTestId("verify-first")).toBeNull();
    await waitFor(() => expect(listedResources(dataProvider)).toEqual(new Set(["lines", "tickets"])));
    // Only the lines' own meters (what the cycle did to each line); the balance waits for the money panel.
    const customUrls = () => dataProvider.custom.mock.calls.map(([args]) => args.url);
    expect(customUrls().filter((url) => !/^\/lines\/[^/]+\/meters$/.test(url))).toEqual([]);

    fireEvent.click(screen.getByTestId("section-money"));
    await waitFor(() =>
      expect(listedResources(dataProvider)).toEqual(new Set(["lines", "tickets", "invoices", "ledger-entries"])),
    );
    expect(await screen.findByText("$12.50")).toBeTruthy();

    fireEvent.click(screen.getByTestId("section-usage"));
    await waitFor(() => expect(listedResources(dataProvider)).toContain("usage-records"));
    const usage = dataProvider.getList.mock.calls
      .map(([args]) => args as { resource: string; filters: unknown })
      .find((args) => args.resource === "usage-records")!;
    expect(usage.filters).toEqual([{ field: "lineId", operator: "in", value: [LINE] }]);
    expect(listedResources(dataProvider)).not.toContain("device-claims");
  });
});
