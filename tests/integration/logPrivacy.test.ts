import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account } from "../../src/resources/accounts";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { SAMPLE_FILES } from "../support/sampleFiles";

// Logs keep ids, routes and shapes, never values people typed (issue 26, item 6): a database error
// logs its SQL without its parameters or the row PostgreSQL quotes back, and the URLs of care
// searches and uploads keep their parameters' names, not their values.

const logs: string[] = [];
let backend: TestBackend;
let alexAccount: Account;

beforeAll(async () => {
  backend = await startTestBackend({ logLevel: "info", logStream: { write: (line: string) => void logs.push(line) } });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  alexAccount = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data[0]!;
  // A check the ticket below fails, so its insert is a database error carrying what alex typed.
  await backend.database.db.execute(
    sql`alter table tickets add constraint log_privacy_probe check (subject not like 'Call me at %')`,
  );
});

afterAll(async () => {
  await backend?.close();
});

/** One line of the backend's JSON log: the fields these checks read. */
interface LogEntry {
  msg?: string;
  reqId?: string;
  err?: { message?: string };
  req?: { method?: string; url?: string; operator?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  level?: number;
}
const entries = () => logs.map((line) => JSON.parse(line) as LogEntry);

describe("the log", () => {
  it("writes one line per answered request: its id, method, path, operator, status and time", async () => {
    const res = await backend.get("/api/v1/accounts?page=1", { as: ALEX });
    expect(res.statusCode).toBe(200);
    const mine = entries().filter((e) => e.reqId === res.headers["x-request-id"]);
    expect(mine.map((e) => e.msg)).toEqual(["request completed"]);
    const [line] = mine;
    expect(line!.level).toBe(30);
    expect(line!.req).toMatchObject({ method: "GET", url: "/api/v1/accounts?page=1", operator: "ATT" });
    expect(line!.res).toEqual({ statusCode: 200 });
    expect(line!.responseTime).toBeGreaterThan(0);
  });

  it("keeps a failed query's SQL and its constraint, never its parameters or the failing row", async () => {
    const typed = {
      subject: "Call me at alex.rivera.home@example.com",
      message: "Sam Chen at (202) 555-0103 sent me the invoice scan-alex-passport.pdf",
    };
    const res = await backend.send("POST", "/api/v1/tickets", {
      as: ALEX,
      body: { accountId: alexAccount.id, category: "billing", ...typed },
    });
    expect(res.statusCode, res.body).toBe(500);
    const requestId = res.headers["x-request-id"];
    const failure = entries().find((e) => e.msg === "unhandled error" && e.reqId === requestId);
    expect(failure, logs.join("\n")).toBeDefined();
    // What the operator's engineer needs: which statement, which constraint of which table.
    expect(failure!.err?.message).toMatch(/^Failed query: insert into "tickets"/);
    expect(JSON.stringify(failure!.err)).toContain('"constraint":"log_privacy_probe"');
    expect(JSON.stringify(failure!.err)).toContain('"code":"23514"');
    const joined = logs.join("\n");
    for (const value of [
      "alex.rivera.home@example.com",
      "Call me at",
      "Sam Chen",
      "555-0103",
      "scan-alex-passport",
      "params",
      "Failing row",
    ])
      expect(joined, value).not.toContain(value);
  });

  it("keeps the route of a care search and an upload, not what was searched for or the file's name", async () => {
    for (const q of ["alex%40example.com", "Sam%20Chen", "%2B12025550101"]) {
      expect((await backend.get(`/api/v1/subscribers?q=${q}&page=1&pageSize=20`, { as: AGENT })).statusCode).toBe(200);
    }
    expect(
      (await backend.get("/api/v1/lines?filter[msisdn][contains]=5550102&sort=-createdAt", { as: AGENT })).statusCode,
    ).toBe(200);
    const upload = await backend.send("POST", "/api/v1/files?name=alex-rivera-passport.pdf&purpose=id_document", {
      as: ALEX,
      body: SAMPLE_FILES.pdf,
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const urls = entries().flatMap((e) => (e.req?.url ? [e.req.url] : []));
    expect(urls).toContain("/api/v1/subscribers?q=~&page=1&pageSize=20");
    expect(urls).toContain("/api/v1/lines?filter[msisdn][contains]=~&sort=-createdAt");
    expect(urls).toContain("/api/v1/files?name=~&purpose=id_document");
    const joined = logs.join("\n");
    for (const value of [
      "alex%40example.com",
      "alex@example.com",
      "Sam%20Chen",
      "12025550101",
      "5550102",
      "alex-rivera-passport",
    ])
      expect(joined, value).not.toContain(value);
  });

  it("never holds a caller's ID token or its header", async () => {
    expect((await backend.get("/api/v1/lines", { as: ALEX })).statusCode).toBe(200);
    const joined = logs.join("\n");
    expect(joined).toContain("/api/v1/lines");
    // An ID token is a JWT: its header always starts "eyJ" (`{"` in base64url).
    expect(joined).not.toMatch(/authorization|bearer|eyJ[\w-]{10,}\./i);
  });
});
