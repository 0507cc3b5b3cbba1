import { expect } from "vitest";
import type { Plan } from "../../src/resources/plans";
import { ADMIN } from "./fixtures";
import type { TestBackend } from "./testBackend";

/**
 * A shared-data plan made in catalog management as any other plan (issue 28), and activated: `dataMb`
 * shared by the account's lines, $20 a line, nothing past the pool, no voice or text allowance.
 */
export async function createPoolPlan(
  backend: TestBackend,
  plan: { code: string; name: string; dataMb: number },
): Promise<Plan> {
  const created = await backend.send("POST", "/api/v1/plans", {
    as: ADMIN,
    body: {
      ...plan,
      kind: "postpaid",
      sharing: "pool",
      price: { amount: 2000, currency: "USD" },
      voiceMinutes: null,
      sms: null,
      features: [],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json<Plan>();
  const activated = await backend.send("POST", `/api/v1/plans/${id}/actions/activate`, { as: ADMIN });
  expect(activated.statusCode, activated.body).toBe(200);
  return activated.json<Plan>();
}
