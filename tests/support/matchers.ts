import { expect } from "vitest";

// vitest types its asymmetric matchers `any`, so they fit any field and switch type checking off
// wherever they sit. These are the same matchers, typed as the value each stands for.

/** Any string. */
export const anyString = () => expect.any(String) as string;
/** Any number. */
export const anyNumber = () => expect.any(Number) as number;
/** Any Date. */
export const anyDate = () => expect.any(Date) as Date;
/** A string that matches the pattern. */
export const stringMatching = (pattern: string | RegExp) => expect.stringMatching(pattern) as string;
/** A string that contains the part. */
export const stringContaining = (part: string) => expect.stringContaining(part) as string;
/** An object with at least these fields (each may itself be a matcher). */
export const objectContaining = <T extends object>(fields: T) => expect.objectContaining<unknown>(fields) as T;
