/** "+12025551000" → "202" (a US number in E.164); undefined for anything else. */
export const areaCodeOf = (msisdn: unknown): string | undefined =>
  typeof msisdn === "string" && /^\+1\d{10}$/.test(msisdn) ? msisdn.slice(2, 5) : undefined;

/**
 * Where a number picker starts when nothing nearer is known (an account without lines): the first
 * area code of each operator's stock (the demo seed's, server/db/seed/demoData.ts `numbers`). The
 * person can type any other.
 */
export const FIRST_AREA_CODE: Readonly<Record<string, string>> = { ATT: "202" };
