/**
 * An action's form values as the body sent: without empty answers, at any depth of plain objects, so
 * a group left empty (the port-in of a line with a new number) is left out. Anything else (arrays,
 * dates) is kept as it is.
 */
export function prunedValues(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "") continue;
    if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      const inner = prunedValues(value as Record<string, unknown>);
      if (Object.keys(inner).length) out[key] = inner;
    } else out[key] = value;
  }
  return out;
}
