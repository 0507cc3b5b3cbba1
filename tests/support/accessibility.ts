import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { pollPage } from "./browser";

/**
 * WCAG 2 A and AA problems axe finds on the page as it is now, one line per element (none expected).
 * AXE_DEBUG=1 adds axe's explanation and the element's HTML to each line.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Colours are judged as they settle: a toast fading in or out, or a button leaving its loading
  // state, is half-transparent for a moment. Endless animations (spinners) are not waited for.
  await pollPage(
    page,
    () =>
      document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
    {
      what: "animations to settle",
    },
  );
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${process.env.AXE_DEBUG ? n.failureSummary + n.html : ""}`),
  );
}
