import type { Money } from "./common";

/** Whether a value read from an answer is money (minor units and a currency); no zod, so the light pages can use it. */
export const isMoney = (value: unknown): value is Money =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Money).amount === "number" &&
  typeof (value as Money).currency === "string";
