import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/**
 * WCAG 2 A and AA problems axe finds on the page as it is now, one line per element (none expected).
 * AXE_DEBUG=1 adds axe's explanation and the element's HTML to each line.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} ${process.env.AXE_DEBUG ? n.failureSummary + n.html : ""}`));
}
