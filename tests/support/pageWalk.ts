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
export function requestsInFlight(page: Page, baseUrl: string): () => number {
  const pending = new Set<Request>();
  const counted = (request: Request) =>
    request.url().startsWith(baseUrl) && !["eventsource", "websocket"].includes(request.resourceType());
  page.on("request", (request) => counted(request) && pending.add(request));
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("requestfailed", (request) => pending.delete(request));
  return () => pending.size;
}

/**
 * Waits until the page is still: no request under way, no spinner or skeleton, no dialog opening or
 * closing, three times in a row 50 ms apart (a page often asks its next question as the first answer
 * lands, and a new page asks for its code a moment after its address changed).
 */
export async function settled(page: Page, inFlight: () => number, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  let quiet = 0;
  while (quiet < 3) {
    const still =
      inFlight() === 0 &&
      (await page.evaluate(
        () =>
          document.readyState === "complete" &&
          !document.querySelector(
            ".ant-spin-spinning, .ant-skeleton-active, .ant-btn-loading, .ant-zoom-enter, .ant-zoom-leave, .ant-fade-enter, .ant-fade-leave",
          ),
      ));
    quiet = still ? quiet + 1 : 0;
    if (Date.now() > deadline) throw new Error(`${page.url()} was still busy after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Goes to a path of the portal as its own links do (history + popstate), without loading the page again. */
export async function goWithin(page: Page, path: string): Promise<void> {
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
