import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { expectProblem } from "../support/problems";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";

// Claims naming an operator that does not exist (set by hand, or left from one since removed): the
// token is refused at the door with 403 naming the operator, for reads and writes alike. Before,
// reads answered empty pages and the writes below failed in the database (500). Throwaway users.

const PASSWORD = "Throwaway-2026!";
const NOWHERE = "ZZZ";
let backend: TestBackend;
const created: string[] = [];
const tokens: Record<"admin" | "subscriber", string> = { admin: "", subscriber: "" };

beforeAll(async () => {
  backend = await startTestBackend();
  for (const role of ["admin", "subscriber"] as const) {
    const email = `nowhere-${role}-${randomUUID()}@example.test`;
    const { uid } = await backend.auth.createUser({ email, password: PASSWORD, emailVerified: true });
    created.push(uid);
    await backend.auth.setCustomUserClaims(uid, { role, operator: NOWHERE });
    tokens[role] = await signInWithPassword(email, PASSWORD);
  }
});

afterAll(async () => {
  if (!backend) return;
  await Promise.all(created.map((uid) => backend.auth.deleteUser(uid).catch(() => {})));
  await backend.close();
});

const usd = (amount: number) => ({ amount, currency: "USD" });
const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

/** The writes that reached the database and failed there with 500, each with a body the API accepts. */
const writes: {
  role: "admin" | "subscriber";
  method: "POST" | "PUT";
  url: string;
  body: unknown;
  headers?: Record<string, string>;
}[] = [
  {
    role: "admin",
    method: "POST",
    url: "/api/v1/staff",
    body: { email: `invitee-${randomUUID()}@example.test`, role: "agent", displayName: "Nowhere agent" },
    headers: { "idempotency-key": randomUUID() },
  },
  {
    role: "admin",
    method: "POST",
    url: "/api/v1/voucher-batches",
    body: { count: 2, value: usd(500), expiresOn: inAYear },
    headers: { "idempotency-key": randomUUID() },
  },
  {
    role: "admin",
    method: "POST",
    url: "/api/v1/plans",
    body: {
      code: "NOWHERE1",
      name: "Nowhere",
      kind: "prepaid",
      price: usd(100),
      dataMb: null,
      voiceMinutes: null,
      sms: null,
      features: [],
    },
  },
  {
    role: "subscriber",
    method: "POST",
    url: "/api/v1/files?name=id.pdf",
    body: SAMPLE_FILES.pdf,
    headers: { "content-type": "application/pdf" },
  },
  {
    role: "subscriber",
    method: "POST",
    url: "/api/v1/contact-requests",
    body: { topic: "billing", channel: "email", message: "Please call me about my bill." },
  },
  {
    role: "subscriber",
    method: "POST",
    url: "/api/v1/privacy-requests",
    body: { kind: "close_and_delete", note: null },
  },
  {
    role: "subscriber",
    method: "PUT",
    url: "/api/v1/me/consent",
    body: { analytics: true, chat: true, decidedAt: new Date().toISOString() },
  },
  {
    role: "subscriber",
    method: "PUT",
    url: "/api/v1/me/notification-preferences",
    body: { usage80: { email: true, sms: false } },
  },
];

describe("a token whose claims name an operator that does not exist", () => {
  it.each(writes)(
    "$method $url: 403 naming the operator, nothing written",
    async ({ role, method, url, body, headers }) => {
      const res = await backend.send(method, url, { token: tokens[role], operator: NOWHERE, body, headers });
      expect(expectProblem(res, 403).detail).toMatch(new RegExp(`no operator ${NOWHERE}`));
    },
  );

  it("reads are refused the same way, for staff and subscribers", async () => {
    for (const [role, url] of [
      ["admin", "/api/v1/plans"],
      ["admin", "/api/v1/staff"],
      ["subscriber", "/api/v1/lines"],
      ["subscriber", "/api/v1/home"],
      ["subscriber", "/api/v1/me"],
    ] as const) {
      const res = await backend.get(url, { token: tokens[role], operator: NOWHERE });
      expect(expectProblem(res, 403).detail, `${role} ${url}`).toMatch(new RegExp(`no operator ${NOWHERE}`));
    }
  });

  it("the operators that exist are served as before", async () => {
    expect((await backend.get("/api/v1/plans", { as: "admin@att.example" })).statusCode).toBe(200);
    expect((await backend.get("/api/v1/staff", { as: "admin@tmo.example", operator: "TMO" })).statusCode).toBe(200);
  });
});
