import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_FLAG_DEFAULTS } from "../../src/config/featureFlags";
import { auditEvents, lines, operators, topUps } from "../../server/db/schema";
import { staticFeatureFlags } from "../../server/lib/featureFlags";
import { startSandboxGateway, type SandboxGateway } from "../../server/payments/sandbox/server";
import { sandboxGateway } from "../../server/payments/sandbox/client";
import { SANDBOX_CARDS } from "../../server/payments/sandbox/cards";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX, TAYLOR } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { freePort } from "../support/freePort";
import { expectProblem } from "../support/problems";
import { tokenizeCard } from "../support/sandboxCards";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { stringMatching } from "../support/matchers";

// The backend applies the same Remote Config flags as the portal: here (no internet, the repo's
// template, no live load) exactly the in-code defaults.
let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
});
afterAll(async () => {
  await backend?.close();
});

describe("GET /api/v1/feature-flags", () => {
  it.each([
    [ALEX, "ATT"],
    [ADMIN, "ATT"],
    [TAYLOR, "TMO"],
  ])("%s sees the defaults from the repo's template", async (as, operator) => {
    const res = await backend.get("/api/v1/feature-flags", { as, operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ flags: FEATURE_FLAG_DEFAULTS, source: "repo-template" });
  });

  it("answers 401 without a token and 403 for another operator's user", async () => {
    expect((await backend.send("GET", "/api/v1/feature-flags")).statusCode).toBe(401);
    expect((await backend.get("/api/v1/feature-flags", { as: TAYLOR, operator: "ATT" })).statusCode).toBe(403);
  });
});

// The toggles are real on the backend too: card_top_up_enabled and esim_transfer_enabled switched off
// (here through buildApp's `featureFlags`, a source the test sets; in production the live template)
// refuse the feature with 422, and switched back on (the defaults) it works as before.
describe("feature toggles on the backend", () => {
  const flags = staticFeatureFlags();
  let toggled: TestBackend;
  let sandbox: SandboxGateway;
  let alexPrepaid: string;
  let alexLine: { id: string; iccid: string };
  const usd = (amount: number) => ({ amount, currency: "USD" });
  beforeAll(async () => {
    const API_KEY = "sk_sandbox_test";
    const SECRET = "test-webhook-secret";
    sandbox = await startSandboxGateway({
      port: await freePort(),
      apiKey: API_KEY,
      webhookSecret: SECRET,
      lateSuccessMs: null,
      webhook: async (body, headers) =>
        (await toggled.app.inject({ method: "POST", url: "/api/v1/payment-webhooks/sandbox", headers, payload: body }))
          .statusCode,
    });
    toggled = await startTestBackend({
      featureFlags: flags,
      paymentGateways: {
        sandbox: sandboxGateway({ url: sandbox.url, apiKey: API_KEY, webhookSecret: SECRET, chargeTimeoutMs: 3_000 }),
      },
    });
    const [att] = await toggled.database.db
      .select({ settings: operators.settings })
      .from(operators)
      .where(eq(operators.code, "ATT"));
    await toggled.database.db
      .update(operators)
      .set({ settings: { ...att!.settings, topUpPayment: "sandbox" } })
      .where(eq(operators.code, "ATT"));
    alexPrepaid = (await toggled.get("/api/v1/accounts", { as: ALEX }))
      .json<{ data: { id: string; type: string }[] }>()
      .data.find((a) => a.type === "prepaid")!.id;
    alexLine = (await toggled.get("/api/v1/lines", { as: ALEX }))
      .json<{
        data: { id: string; msisdn: string; iccid: string }[];
      }>()
      .data.find((l) => l.msisdn === "+12025550102")!;
  });
  afterEach(() => flags.set(FEATURE_FLAG_DEFAULTS));
  afterAll(async () => {
    await toggled?.close();
    await sandbox?.close();
  });

  const topUp = async (as: string) =>
    toggled.send("POST", "/api/v1/top-ups", {
      as,
      body: {
        accountId: alexPrepaid,
        amount: usd(500),
        cardToken: await tokenizeCard(sandbox.url, SANDBOX_CARDS.succeeds),
      },
    });
  const swap = (as: string, body: Record<string, unknown>, preview = false) =>
    toggled.send("POST", `/api/v1/lines/${alexLine.id}/actions/swap-sim${preview ? "/preview" : ""}`, { as, body });

  it("card_top_up_enabled off: POST /top-ups answers 422 saying so and offering vouchers, charges nothing and writes nothing; on again, it tops up", async () => {
    flags.set({ card_top_up_enabled: false });
    const chargesBefore = sandbox.events.length;
    for (const as of [ALEX, AGENT]) {
      const problem = expectProblem(await topUp(as), 422);
      expect(problem.detail).toMatch(/Card top-up is turned off/);
      expect(problem.detail).toMatch(/voucher/);
    }
    expect(await toggled.database.db.select().from(topUps)).toEqual([]);
    expect(sandbox.events.length).toBe(chargesBefore);
    expect((await toggled.get("/api/v1/feature-flags", { as: ALEX })).json()).toMatchObject({
      flags: { card_top_up_enabled: false },
    });

    flags.set({ card_top_up_enabled: true });
    const res = await topUp(ALEX);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: "completed", amount: usd(500) });
  });

  it("esim_transfer_enabled off: swap-sim to an eSIM is refused with 422 naming simType (preview too) and changes nothing; a physical SIM still swaps; on again, the eSIM swap works", async () => {
    flags.set({ esim_transfer_enabled: false });
    // An eSIM needs the holder's ID (an id_document upload); with it, the toggle is what refuses.
    const idDocument = await toggled.send("POST", "/api/v1/files?name=id.png&purpose=id_document", {
      as: ALEX,
      body: SAMPLE_FILES.png,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(idDocument.statusCode, idDocument.body).toBe(201);
    const esim = { simType: "esim", idDocumentFileId: idDocument.json<{ id: string }>().id };
    expect(expectProblem(await swap(ALEX, esim), 422, "simType").detail).toMatch(/turned off/);
    expectProblem(await swap(ALEX, esim, true), 422, "simType");
    expectProblem(await swap(AGENT, { ...esim, reason: "new phone, customer in store" }), 422, "simType");
    const [unchanged] = await toggled.database.db
      .select({ iccid: lines.iccid, simType: lines.simType })
      .from(lines)
      .where(eq(lines.id, alexLine.id));
    expect(unchanged).toEqual({ iccid: alexLine.iccid, simType: "physical" });
    expect(await toggled.database.db.select().from(auditEvents).where(eq(auditEvents.targetId, alexLine.id))).toEqual(
      [],
    );

    const physical = await swap(ALEX, { iccid: "8901410000000066666" });
    expect(physical.statusCode, physical.body).toBe(200);
    expect(physical.json()).toMatchObject({ simType: "physical", iccid: "8901410000000066666" });

    flags.set({ esim_transfer_enabled: true });
    const moved = await swap(ALEX, esim);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      simType: "esim",
      result: { activationCode: stringMatching(/^LPA:1\$/) },
    });
  });

  it("the OpenAPI document says when each is refused", async () => {
    const doc = JSON.stringify((await toggled.get("/api/openapi.json")).json());
    expect(doc.includes("esim_transfer_enabled is on (else 422)"), "swap-sim names its toggle").toBe(true);
    expect(doc.includes("card_top_up_enabled is off"), "POST /top-ups names its toggle").toBe(true);
  });
});
