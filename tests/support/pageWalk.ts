import type { Page, Request } from "playwright-core";

/**
 * Walking the signed-in portal page by page without reloading it: the router is told of a new
 * address as a link would tell it, and a page counts as shown once its data has come and nothing
 * spins. Used by the language walk (tests/e2e/languageWalk.test.ts).
 */

/**
 * How many of the page's requests to the portal are under way: API calls, and the code of a page not
 * opened before (the router keeps the old page in view until it has arrived). The live stream, which
 * never ends, is not one.
 */
export function requestsInFlight(page: Page, baseUrl: string): InFlight {
  const pending = new Set<Request>();
  const counted = (request: Request) =>
    request.url().startsWith(baseUrl) && !["eventsource", "websocket"].includes(request.resourceType());
  page.on("request", (request) => counted(request) && pending.add(request));
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("requestfailed", (request) => pending.delete(request));
  return Object.assign(() => pending.size, { urls: () => [...pending].map((r) => r.url().slice(baseUrl.length)) });
}

/** How many requests are under way, and (for a page that never settles) which. */
export type InFlight = (() => number) & { urls(): string[] };

/**
 * Waits until the page is still: no request under way, no spinner or skeleton, no dialog opening or
 * closing, three times in a row 50 ms apart (a page often asks its next question as the first answer
 * lands, and a new page asks for its code a moment after its address changed).
 */
export async function settled(page: Page, inFlight: InFlight, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let quiet = 0;
  while (quiet < 3) {
    const busy = await page.evaluate(() =>
      document.readyState !== "complete"
        ? "loading"
        : document.querySelector(
            ".ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading, .ant-zoom-enter, .ant-zoom-leave, .ant-fade-enter, .ant-fade-leave",
          )?.className,
    );
    quiet = inFlight() === 0 && !busy ? quiet + 1 : 0;
    if (Date.now() > deadline)
      throw new Error(
        `${page.url()} was still busy after ${timeout} ms: requests ${JSON.stringify(inFlight.urls())}, element ${busy ?? "none"}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Goes to a path of the portal as its own links do (history + popstate), without loading the page
 * again. The subscriber's light home is no router's page (its links hand over to the portal by
 * loading it): from there the portal is loaded at the path.
 */
export async function goWithin(page: Page, path: string): Promise<void> {
  if (!(await page.evaluate(() => document.querySelector(".ant-layout") !== null))) {
    await page.goto(new URL(path, page.url()).href);
    return;
  }
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate", { state: null }));
  }, path);
}

/** The portal's own addresses a page links to from its navigation, header and content. */
export async function linksOn(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLAnchorElement>(
        "nav a[href], header a[href], main a[href], .ant-layout-content a[href]",
      ),
    ]
      .filter((a) => a.origin === location.origin && !a.hasAttribute("download"))
      .map((a) => a.pathname),
  );
}

const ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)$/i;

/** A path with its record ids taken out: `/lines/show/:id`, one page of its kind. */
export const pageKind = (path: string) =>
  path
    .replace(/\/(show|edit)\/[^/]+/, "/$1/:id")
    .split("/")
    .map((part) => (ID.test(part) ? ":id" : part))
    .join("/");

export interface WalkItem {
  path: string;
  /** Links followed from home to get here. */
  depth: number;
  /** The walks that may read it: those that reach the page it was found on. */
  walkers: Set<string>;
}

/**
 * The pages left to read, shared by the walks of roles that see mostly the same pages (the agent and
 * the admin): each kind of page is read once, by a walk whose role reaches it (a page only the
 * admin's menu links to is the admin's; what a shared page links to is shared). Each reads its own
 * home. A walk that finds nothing it may take waits for another's offers, and all are done once
 * nobody is reading a page and nothing is left that anyone may take.
 */
export class WalkQueue {
  private readonly items: WalkItem[] = [];
  private readonly byKind = new Map<string, WalkItem>();
  private readonly waiting: (() => void)[] = [];
  private reading = 0;

  /** A link to `path` found on a page these walks reach; a walk's own home is offered at depth 0. */
  offer(walkers: ReadonlySet<string>, path: string, depth: number): void {
    const kind = depth === 0 ? `${path} of ${[...walkers].join()}` : pageKind(path);
    const known = this.byKind.get(kind);
    if (known) for (const walker of walkers) known.walkers.add(walker);
    else {
      const item = { path, depth, walkers: new Set(walkers) };
      this.byKind.set(kind, item);
      this.items.push(item);
    }
    this.wake();
  }

  /** The next page for `walker`, or undefined once the walk is over; call `done` after reading it. */
  async next(walker: string): Promise<WalkItem | undefined> {
    for (;;) {
      const index = this.items.findIndex((item) => item.walkers.has(walker));
      if (index >= 0) {
        this.reading++;
        return this.items.splice(index, 1)[0];
      }
      if (this.reading === 0) {
        this.wake();
        return undefined;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  done(): void {
    this.reading--;
    this.wake();
  }

  private wake() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
