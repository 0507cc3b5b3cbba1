import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { anyString } from "./matchers";

/** An RFC 9457 problem as every error of the API answers it (server/errors.ts). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: { path: string; message: string }[];
  /** Extension members some problems carry (e.g. `shortfall`, `retryAfter`). */
  [extension: string]: unknown;
}

/**
 * Asserts an error answer: the status, the problem+json content type, the problem's own fields, and,
 * when `field` is given, that one of its errors names that field (an exact path such as `address.zip`).
 */
export function expectProblem(res: LightMyRequestResponse, status: number, field?: string): Problem {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const problem = res.json<Problem>();
  expect(problem, res.body).toMatchObject({
    type: anyString(),
    title: anyString(),
    status,
    detail: anyString(),
  });
  if (field)
    expect(
      problem.errors?.map((e) => e.path),
      res.body,
    ).toContain(field);
  return problem;
}
