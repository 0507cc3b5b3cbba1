import { expect } from "vitest";

/** What the browser does: the card goes to the sandbox gateway's tokenizer, never to our API; returns the one-time token. */
export async function tokenizeCard(
  sandboxUrl: string,
  number: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${sandboxUrl}/v1/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ number, expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: "123" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}
