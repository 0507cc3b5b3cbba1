import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerConfig } from "../../server/config";
import { freshPhoneNumber } from "../support/emulatorCodes";
import { expectProblem } from "../support/problems";
import { startTestBackend, type TestBackend, type TestInstance } from "../support/testBackend";

// TRUST_PROXY decides which X-Forwarded-For entry is the client: a client that writes its own chain
// (rotating the leftmost entry on every call) must still meet the per-address SMS limit (10 an hour
// by default). Each case uses client addresses of its own; the proxies are 10.0.x.y.

let backend: TestBackend;

const trusting = (TRUST_PROXY: string) =>
  backend.startAnotherInstance({ trustProxy: loadServerConfig({ TRUST_PROXY }).trustProxy });

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  await backend?.close();
});

/** One SMS allowance for a fresh number, as sent through the proxy at `from` with the chain `forwardedFor`. */
const allowance = (instance: TestInstance, from: string, forwardedFor: string) =>
  instance.send("POST", "/api/auth/sms-allowance", {
    body: { phoneNumber: freshPhoneNumber(), purpose: "sign_in" },
    remoteAddress: from,
    headers: { "x-forwarded-for": forwardedFor },
  });

/**
 * Sends 11 allowances, the leftmost entry different each time: the first 10 pass, the 11th is 429
 * from this network. Another client behind the same proxies still passes: the chain is read, not
 * only the proxy's own address.
 */
async function expectLimitedDespiteSpoofing(
  instance: TestInstance,
  from: string,
  chainAfterSpoof: (client: string) => string,
  client: string,
  neighbour: string,
) {
  for (let i = 1; i <= 10; i++) {
    const res = await allowance(instance, from, `203.0.113.${i}, ${chainAfterSpoof(client)}`);
    expect(res.statusCode, res.body).toBe(200);
  }
  const refused = expectProblem(await allowance(instance, from, `203.0.113.11, ${chainAfterSpoof(client)}`), 429);
  expect(refused.detail).toMatch(/from this network/);
  const other = await allowance(instance, from, `203.0.113.12, ${chainAfterSpoof(neighbour)}`);
  expect(other.statusCode, other.body).toBe(200);
}

describe("TRUST_PROXY: the client address is the one the trusted proxies saw, never an entry the client wrote", () => {
  it("true means one proxy: its own entry (the rightmost) is the client, whatever the client put before it", async () => {
    await expectLimitedDespiteSpoofing(
      await trusting("true"),
      "10.0.1.1",
      (client) => client,
      "198.51.100.61",
      "198.51.100.71",
    );
  });

  it("a number of hops: the entry that many proxies back", async () => {
    // Two proxies: 10.0.2.2 appended the client, 10.0.2.1 appended 10.0.2.2.
    await expectLimitedDespiteSpoofing(
      await trusting("2"),
      "10.0.2.1",
      (client) => `${client}, 10.0.2.2`,
      "198.51.100.62",
      "198.51.100.72",
    );
  });

  it("proxy addresses and CIDRs: the first entry from the right that is not a trusted proxy", async () => {
    const instance = await trusting("10.0.3.0/24, 127.0.0.1");
    await expectLimitedDespiteSpoofing(
      instance,
      "10.0.3.1",
      (client) => `${client}, 10.0.3.2`,
      "198.51.100.63",
      "198.51.100.73",
    );
    // Someone who reaches the backend directly is not a trusted proxy: its chain is ignored, its own address counts.
    for (let i = 1; i <= 10; i++) expect((await allowance(instance, "192.0.2.64", `10.0.3.${i}`)).statusCode).toBe(200);
    expectProblem(await allowance(instance, "192.0.2.64", "198.51.100.99"), 429);
  });

  it("false (the default): X-Forwarded-For is not read at all", async () => {
    for (let i = 1; i <= 10; i++)
      expect((await allowance(backend, "192.0.2.65", `198.51.100.${i}`)).statusCode).toBe(200);
    expectProblem(await allowance(backend, "192.0.2.65", "198.51.100.11"), 429);
  });
});
