/** How each carrier code is shown. Colours meet WCAG AA (≥ 4.5:1) against white. */
export const brands: Record<string, { name: string; primary: string }> = {
  ATT: { name: "AT&T", primary: "#0057b8" },
};

export function brandOf(operator: string) {
  return brands[operator] ?? { name: operator, primary: "#1f4e8c" };
}
