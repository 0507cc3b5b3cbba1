import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TAYLOR } from "../support/fixtures";
import { stringMatching } from "../support/matchers";

// The profile (GET/PUT /api/v1/me/profile): the person's own contact details, each field checked with
// the message at the field, phone numbers stored as E.164, US addresses with state and ZIP rules.
let backend: TestBackend;
const URL = "/api/v1/me/profile";
const VALID = {
  name: "Alex Rivera",
  contactEmail: "alex.r@example.com",
  contactPhone: "(202) 555-0199",
  address: { line1: "1600 Pennsylvania Ave NW", line2: null, city: "Washington", state: "DC", zip: "20500-0003" },
  language: "es",
};

beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

const read = async (as: string, operator?: string) => {
  const res = await backend.get(URL, { as, operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ profile: Record<string, unknown>; saved: boolean }>();
};

describe("the profile", () => {
  it("is prefilled from the person's account until saved", async () => {
    const { profile, saved } = await read(SAM);
    expect(saved).toBe(false);
    expect(profile).toMatchObject({
      name: stringMatching(/Sam/),
      contactEmail: "sam@example.com",
      address: null,
      language: "en",
    });
  });

  it("saves every field, the phone number as E.164, and reads back the same", async () => {
    const res = await backend.send("PUT", URL, { as: ALEX, body: VALID });
    expect(res.statusCode, res.body).toBe(200);
    const { profile, saved } = await read(ALEX);
    expect(saved).toBe(true);
    expect(profile).toEqual({ ...VALID, contactPhone: "+12025550199" });
  });

  it("accepts an international number with its country code", async () => {
    const res = await backend.send("PUT", URL, { as: ALEX, body: { ...VALID, contactPhone: "+44 7911 123456" } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await read(ALEX)).profile.contactPhone).toBe("+447911123456");
  });

  it.each([
    [{ contactPhone: "555-01" }, "contactPhone", /valid phone number/],
    [{ contactEmail: "alex@" }, "contactEmail", /valid email/],
    [{ name: "  " }, "name", /enter your name/],
    [{ address: { ...VALID.address, zip: "2050" } }, "address.zip", /5 digits/],
    [{ address: { ...VALID.address, state: "XX" } }, "address.state", /choose a state/],
    [{ address: { ...VALID.address, city: "" } }, "address.city", /enter the city/],
    [{ language: "fr" }, "language", /English or Spanish/],
  ])("refuses %j naming %s, and changes nothing", async (change, path, message) => {
    const before = await read(ALEX);
    const res = await backend.send("PUT", URL, { as: ALEX, body: { ...VALID, ...change } });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    const errors = res.json<{ errors: { path: string; message: string }[] }>().errors;
    const error = errors.find((e) => e.path === path);
    expect(error, JSON.stringify(errors)).toBeDefined();
    expect(error!.message).toMatch(message);
    expect(await read(ALEX)).toEqual(before);
  });

  it("reads for staff too, who have no account to prefill it from (an empty name, never a 500)", async () => {
    const { profile, saved } = await read(AGENT);
    expect(saved).toBe(false);
    expect(profile).toMatchObject({ name: "", address: null });
  });

  it("is each person's own, per operator; 401 without a token", async () => {
    expect((await read(SAM)).saved).toBe(false);
    expect((await read(TAYLOR, "TMO")).profile.name).toMatch(/Taylor/);
    expect((await backend.get(URL, { as: TAYLOR, operator: "ATT" })).statusCode).toBe(403);
    expect((await backend.send("GET", URL)).statusCode).toBe(401);
    expect((await backend.send("PUT", URL, { body: VALID })).statusCode).toBe(401);
  });

  it("is described in the OpenAPI document", async () => {
    const res = await backend.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<{ paths: Record<string, unknown> }>().paths)).toEqual(
      expect.arrayContaining(["/api/v1/me/profile", "/api/v1/me/consent", "/api/v1/feature-flags"]),
    );
  });
});
