/**
 * How each carrier code is shown. Colours meet WCAG AA (≥ 4.5:1) against white. `currency` is the
 * one new amounts are entered in (the backend's operators table holds the same).
 */
export const brands: Record<string, { name: string; primary: string; currency: string }> = {
  ATT: { name: "AT&T", primary: "#0057b8", currency: "USD" },
};

export function brandOf(operator: string) {
  return brands[operator] ?? { name: operator, primary: "#1f4e8c", currency: "USD" };
}
