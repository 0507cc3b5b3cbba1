import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { accounts, carePins, crmOutbox, ledgerEntries, storedFiles, subscriberProfiles } from "../../server/db/schema";

// Privacy: the data export (GET /api/v1/me/privacy-export, a zip of JSON and CSV per table) and the
// request to close the account and delete the data (privacy-requests), completed by care; what the
// law makes the operator keep (invoices, ledger) is kept, and both say so.
let backend: TestBackend;
const EXPORT = "/api/v1/me/privacy-export";
const REQUESTS = "/api/v1/privacy-requests";

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
});
afterAll(async () => {
  await backend?.close();
});

const unzip = (payload: Buffer) => unzipSync(new Uint8Array(payload));
const json = (zip: Record<string, Uint8Array>, name: string) =>
  JSON.parse(strFromU8(zip[name]!)) as Record<string, unknown>[];

describe("the data export", () => {
  it("hands a subscriber their own data as JSON and CSV per table, their files, and what is kept by law", async () => {
    const uploaded = (
      await backend.send("POST", "/api/v1/files?name=passport.pdf&purpose=id_document", {
        as: ALEX,
        body: SAMPLE_FILES.pdf,
        headers: { "content-type": "application/pdf" },
      })
    ).json<{ id: string }>();
    const res = await backend.get(EXPORT, { as: ALEX });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = unzip(res.rawPayload);
    for (const table of [
      "accounts",
      "lines",
      "invoices",
      "ledger_entries",
      "orders",
      "usage_records",
      "files",
      "profile",
      "notifications",
    ]) {
      expect(Object.keys(zip)).toEqual(expect.arrayContaining([`${table}.json`, `${table}.csv`]));
    }
    const ownAccounts = json(zip, "accounts.json");
    expect(ownAccounts.length).toBeGreaterThan(0);
    expect(ownAccounts.every((a) => a.email === "alex@example.com")).toBe(true);
    const numbers = json(zip, "lines.json").map((l) => l.msisdn);
    expect(numbers).toEqual(expect.arrayContaining(["+12025550101", "+12025550102"]));
    expect(numbers).not.toContain("+12025550103");
    expect(strFromU8(zip["lines.csv"]!).split("\r\n")[0]).toMatch(/msisdn/);
    // Secrets stay sealed, even for their owner.
    const everything = Object.values(zip)
      .map((bytes) => strFromU8(bytes))
      .join("\n");
    expect(everything).not.toMatch(/pukCipher|portOutPinHash|storageKey/);
    expect(Buffer.compare(Buffer.from(zip[`files/${uploaded.id}-passport.pdf`]!), SAMPLE_FILES.pdf)).toBe(0);
    expect(strFromU8(zip["README.txt"]!)).toMatch(/invoices: tax and accounting law/);
    expect((JSON.parse(strFromU8(zip["retention.json"]!)) as { keptByLaw: string[] }).keptByLaw).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ledger_entries/)]),
    );
  });

  it("holds nothing of another operator's people; a person of another operator is refused (403); 401 without a token", async () => {
    const tmo = unzip((await backend.get(EXPORT, { as: TAYLOR, operator: "TMO" })).rawPayload);
    expect(json(tmo, "accounts.json").every((a) => a.operatorCode === "TMO")).toBe(true);
    expect(json(tmo, "lines.json").map((l) => l.msisdn)).not.toContain("+12025550101");
    expect((await backend.get(EXPORT, { as: TAYLOR, operator: "ATT" })).statusCode).toBe(403);
    expect((await backend.get(EXPORT)).statusCode).toBe(401);
  });
});

describe("closing the account and deleting the data", () => {
  // A throwaway subscriber with an account, a profile, a file, a contact request and a ledger entry.
  const password = "Privacy-2026!";
  let uid = "";
  let token = "";
  let accountId = "";
  beforeAll(async () => {
    const email = `leaving-${randomUUID()}@example.test`;
    ({ uid } = await backend.auth.createUser({ email, password }));
    await backend.auth.setCustomUserClaims(uid, { role: "subscriber", operator: "ATT" });
    token = await signInWithPassword(email, password);
    const [account] = await backend.database.db
      .insert(accounts)
      .values({
        operatorCode: "ATT",
        ownerUid: uid,
        name: "Leaving Person",
        email,
        phone: "+12025550177",
        type: "prepaid",
        address: { line1: "1 Main St", city: "Austin", state: "TX", zip: "73301" },
      })
      .returning();
    accountId = account!.id;
    await backend.database.db.insert(ledgerEntries).values({
      operatorCode: "ATT",
      accountId,
      kind: "top_up",
      amount: 1500,
      currency: "USD",
      reason: "top-up",
      actorUid: uid,
      actorRole: "subscriber",
    });
    const profile = {
      name: "Leaving Person",
      contactEmail: email,
      contactPhone: "(202) 555-0177",
      address: null,
      language: "en",
    };
    expect((await backend.send("PUT", "/api/v1/me/profile", { token, body: profile })).statusCode).toBe(200);
    expect(
      (
        await backend.send("POST", "/api/v1/files?name=id.png&purpose=id_document", {
          token,
          body: SAMPLE_FILES.png,
          headers: { "content-type": "image/png" },
        })
      ).statusCode,
    ).toBe(201);
    const contact = await backend.send("POST", "/api/v1/contact-requests", {
      token,
      body: { topic: "billing", channel: "email", message: "Please call me about my bill." },
    });
    expect(contact.statusCode, contact.body).toBe(201);
  });
  afterAll(async () => {
    await backend.auth.deleteUser(uid).catch(() => undefined);
  });

  let requestId = "";
  it("a subscriber asks; a second open request is a conflict naming the field", async () => {
    const res = await backend.send("POST", REQUESTS, {
      token,
      body: { kind: "close_and_delete", note: "Moving abroad." },
    });
    expect(res.statusCode, res.body).toBe(201);
    const request = res.json<{ id: string; status: string; kept: unknown }>();
    expect(request).toMatchObject({ status: "open", kept: null });
    requestId = request.id;
    const again = await backend.send("POST", REQUESTS, { token, body: { kind: "close_and_delete", note: null } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ errors: { path: string }[] }>().errors[0]!.path).toBe("kind");
    expect(again.json<{ detail: string }>().detail).toBe("You already have an open privacy request.");
    // In the reader's language (issue 25).
    const spanish = await backend.send("POST", REQUESTS, {
      token,
      body: { kind: "close_and_delete", note: null },
      headers: { "accept-language": "es" },
    });
    expect(spanish.statusCode).toBe(409);
    expect(spanish.json()).toMatchObject({
      detail: "Ya tienes una solicitud de privacidad abierta.",
      errors: [{ path: "kind", message: "ya hay una solicitud abierta" }],
    });
  });

  it("refuses a malformed request naming the field, and writes nothing", async () => {
    const before = (await backend.get(REQUESTS, { as: AGENT })).json<{ total: number }>().total;
    const res = await backend.send("POST", REQUESTS, { as: SAM, body: { kind: "delete_everyone" } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain("kind");
    expect((await backend.get(REQUESTS, { as: AGENT })).json<{ total: number }>().total).toBe(before);
    expect((await backend.send("POST", REQUESTS, { body: { kind: "close_and_delete" } })).statusCode).toBe(401);
  });

  it("is seen by the operator's staff, not by another subscriber nor another operator", async () => {
    const list = (await backend.get(`${REQUESTS}?filter[status]=open`, { as: AGENT })).json<{
      data: { id: string }[];
    }>();
    expect(list.data.map((r) => r.id)).toContain(requestId);
    expect((await backend.get(`${REQUESTS}/${requestId}`, { as: SAM })).statusCode).toBe(404);
    expect((await backend.get(`${REQUESTS}/${requestId}`, { as: TMO_AGENT, operator: "TMO" })).statusCode).toBe(404);
    expect((await backend.get(`${REQUESTS}/${requestId}`)).statusCode).toBe(401);
  });

  it("only staff complete it, another operator's staff cannot, and staff must give a reason", async () => {
    expect(
      (await backend.send("POST", `${REQUESTS}/${requestId}/actions/complete`, { token, body: {} })).statusCode,
    ).toBe(403);
    expect(
      (
        await backend.send("POST", `${REQUESTS}/${requestId}/actions/complete`, {
          as: TMO_AGENT,
          operator: "TMO",
          body: { reason: "Identity checked by phone." },
        })
      ).statusCode,
    ).toBe(404);
    const noReason = await backend.send("POST", `${REQUESTS}/${requestId}/actions/complete`, { as: AGENT, body: {} });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain("reason");
  });

  it("completing erases the person's data, keeps invoices and the ledger and says so, and ends their sign-in", async () => {
    const db = backend.database.db;
    const fileKeys = (await db.select().from(storedFiles).where(eq(storedFiles.ownerUid, uid))).map((f) => f.id);
    expect(fileKeys).toHaveLength(1);
    // A care PIN (issue 27) is the person's too: only its hash is kept, and erasure deletes it.
    await db.insert(carePins).values({ operatorCode: "ATT", uid, pinHash: "scrypt.salt.hash" });
    const res = await backend.send("POST", `${REQUESTS}/${requestId}/actions/complete`, {
      as: AGENT,
      body: { reason: "Identity checked by phone." },
    });
    expect(res.statusCode, res.body).toBe(200);

    const done = (await backend.get(`${REQUESTS}/${requestId}`, { as: AGENT })).json<{
      status: string;
      erased: string[];
      kept: string[];
    }>();
    expect(done.status).toBe("completed");
    expect(done.kept).toEqual(
      expect.arrayContaining([expect.stringMatching(/^invoices/), expect.stringMatching(/^ledger_entries/)]),
    );
    expect(done.erased.join("\n")).toMatch(/profile/);
    expect(done.erased).toContain("care PIN deleted");
    expect(await db.select().from(carePins).where(eq(carePins.uid, uid))).toEqual([]);

    const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(account).toMatchObject({ status: "closed", email: null, phone: null, address: null, balanceAmount: 1500 });
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(subscriberProfiles)
        .where(and(eq(subscriberProfiles.operatorCode, "ATT"), eq(subscriberProfiles.uid, uid))),
    ).toEqual([]);
    expect(await db.select().from(storedFiles).where(eq(storedFiles.ownerUid, uid))).toEqual([]);
    expect((await backend.get(`/api/v1/files/${fileKeys[0]}/content`, { as: AGENT })).statusCode).toBe(404);
    const leads = await db.select().from(crmOutbox).where(eq(crmOutbox.operatorCode, "ATT"));
    expect(leads.some((lead) => JSON.stringify(lead.fields).includes("Please call me about my bill."))).toBe(false);

    expect((await backend.auth.getUser(uid)).disabled).toBe(true);
    expect((await backend.get(EXPORT, { token })).statusCode).toBe(401);
  });

  it("a completed request cannot be completed again (409 naming the status)", async () => {
    const res = await backend.send("POST", `${REQUESTS}/${requestId}/actions/complete`, {
      as: AGENT,
      body: { reason: "Identity checked again." },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ errors: { path: string }[] }>().errors[0]!.path).toBe("status");
  });
});
