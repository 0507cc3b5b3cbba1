import { expect } from "vitest";
import { signInWithPassword } from "./testBackend";

/**
 * The e2e files share one backend, and some leave sam's line (202) 555-0103 suspended: a story that
 * starts from an active line restores it first, through the API as the operator's admin.
 */
export async function samsLineActive(baseUrl: string): Promise<void> {
  const headers = {
    authorization: `Bearer ${await signInWithPassword("admin@att.example")}`,
    "x-operator": "ATT",
    "x-app-version": "3.2.1",
    "content-type": "application/json",
  };
  const lines = (await (await fetch(`${baseUrl}/api/v1/lines?q=0103&pageSize=20`, { headers })).json()) as {
    data: { id: string; msisdn: string; status: string }[];
  };
  const line = lines.data.find((l) => l.msisdn === "+12025550103")!;
  if (line.status !== "suspended") return;
  const res = await fetch(`${baseUrl}/api/v1/lines/${line.id}/actions/restore`, {
    method: "POST",
    headers,
    body: JSON.stringify({ reason: "e2e: the story starts from an active line" }),
  });
  expect(res.status, await res.text()).toBe(200);
}
