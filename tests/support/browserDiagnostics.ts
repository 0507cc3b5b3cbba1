import type { Browser, BrowserContext, Request } from "playwright-core";

/**
 * What each open browser context of a test asked of the network and said on its console, and where
 * its pages were clicked, so that a failing end-to-end test shows whether a click reached the page,
 * whether its request left the browser, which requests were still waiting and what the open dialogs
 * said. Kept for the rare failure on a loaded machine that does not come back when the file runs
 * again (tests/e2e/failureDiagnostics.ts prints it).
 */
interface Trace {
  context: BrowserContext;
  started: number;
  events: string[];
  pending: Map<Request, number>;
}

const KEPT_EVENTS = 80;
const traces = new Set<Trace>();
/** Off for benchmarks, which launch Chromium the same way: listening to every request costs time. */
let enabled = false;

/** Traces the contexts of every browser launched from now on (the e2e suite's setup turns it on). */
export function enableBrowserTracing() {
  enabled = true;
}

/** Seconds from the context's opening to `at`, aligned for a column. */
const sinceOpened = (trace: Trace, at: number) => `${((at - trace.started) / 1000).toFixed(2).padStart(8)} s`;
const clock = (trace: Trace) => sinceOpened(trace, Date.now());
/** What a page answers within 2 s, or `fallback`: a hung page must not hold up the report of a failure. */
const withinTwoSeconds = <T>(read: Promise<T>, fallback: T) =>
  Promise.race([read.catch(() => fallback), new Promise<T>((resolve) => setTimeout(() => resolve(fallback), 2_000))]);
const shortUrl = (url: string) =>
  url
    .replace(/^https?:\/\/[^/]+/, "")
    .replace(/([?&]token=)[^&]+/, "$1…")
    .slice(0, 160);

function record(trace: Trace, line: string) {
  trace.events.push(`${clock(trace)}  ${line}`);
  if (trace.events.length > KEPT_EVENTS) trace.events.shift();
}

/**
 * Kept in each page: the last clicks and presses, with what they landed on, so a click that changed
 * nothing shows whether it reached the page at all. A string: tsx would wrap a function in a helper
 * the page does not have.
 */
const CLICK_LOG = `(() => {
  const kept = (window.__e2eClicks = []);
  const name = (el) => {
    if (!(el instanceof Element)) return String(el);
    const target = el.closest("button, a, [role=button], input, select, label, [role=dialog]") || el;
    return target.tagName.toLowerCase() + " " + JSON.stringify((target.textContent || "").trim().slice(0, 40));
  };
  for (const type of ["pointerdown", "click"]) {
    addEventListener(type, (e) => {
      kept.push({ at: Date.now(), line: type + " on " + name(e.target) + (e.isTrusted ? "" : " (synthetic)") });
      if (kept.length > 20) kept.shift();
    }, true);
  }
})();`;

function follow(context: BrowserContext) {
  const trace: Trace = { context, started: Date.now(), events: [], pending: new Map() };
  traces.add(trace);
  // A context closed at once (or a test's own init scripts) must not turn this into an error.
  context.addInitScript({ content: CLICK_LOG }).catch(() => undefined);
  context.on("close", () => traces.delete(trace));
  context.on("request", (request) => {
    trace.pending.set(request, Date.now());
    // Pages, scripts and styles load the same way every time; what a flake hides is in the API calls.
    if (
      request.resourceType() === "fetch" ||
      request.resourceType() === "xhr" ||
      request.resourceType() === "eventsource" ||
      request.resourceType() === "document"
    ) {
      record(trace, `→ ${request.method()} ${shortUrl(request.url())} (${request.resourceType()})`);
    }
  });
  context.on("response", (response) => {
    const request = response.request();
    if (request.resourceType() !== "fetch" && request.resourceType() !== "eventsource") return;
    record(trace, `← ${response.status()} ${request.method()} ${shortUrl(request.url())}`);
  });
  context.on("requestfinished", (request) => trace.pending.delete(request));
  context.on("requestfailed", (request) => {
    trace.pending.delete(request);
    record(trace, `✗ ${request.method()} ${shortUrl(request.url())}: ${request.failure()?.errorText ?? "failed"}`);
  });
  context.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      record(trace, `console.${message.type()}: ${message.text().slice(0, 300)}`);
  });
  context.on("weberror", (error) => record(trace, `page error: ${error.error().message.slice(0, 300)}`));
}

/** Starts tracing every context the browser opens from now on, when tracing is on. */
export function traceContexts(browser: Browser) {
  if (enabled) browser.on("context", follow);
}

/** A readable account of every context still open: its pages and dialogs, waiting requests and last events. */
export async function describeOpenContexts(): Promise<string> {
  const parts: string[] = [];
  for (const trace of traces) {
    const lines = [`browser context (${clock(trace).trim()} old)`];
    for (const page of trace.context.pages()) {
      lines.push(`  page ${shortUrl(page.url())}`);
      const dialogs = await withinTwoSeconds(
        page
          .getByRole("dialog")
          .evaluateAll((nodes) =>
            nodes.map((node) => (node as HTMLElement).innerText.replace(/\s+/g, " ").slice(0, 300)),
          ),
        [] as string[],
      );
      for (const text of dialogs) lines.push(`    open dialog: ${text}`);
      const clicks = await withinTwoSeconds(
        page.evaluate(() => (window as { __e2eClicks?: { at: number; line: string }[] }).__e2eClicks ?? []),
        [] as { at: number; line: string }[],
      );
      for (const click of clicks) lines.push(`    ${sinceOpened(trace, click.at)}  ${click.line}`);
    }
    const now = Date.now();
    for (const [request, since] of trace.pending) {
      lines.push(
        `  waiting ${((now - since) / 1000).toFixed(1)} s: ${request.method()} ${shortUrl(request.url())} (${request.resourceType()})`,
      );
    }
    lines.push("  last events:", ...trace.events.map((event) => `    ${event}`));
    parts.push(lines.join("\n"));
  }
  return parts.join("\n\n");
}
