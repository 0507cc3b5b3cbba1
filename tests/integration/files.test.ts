import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TAYLOR, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { storedFiles } from "../../server/db/schema";

// Uploads and downloads through the file store (POST /api/v1/files, GET /api/v1/files/{id}/content):
// the type sniffed from the bytes, the size limited, the bytes only to their owner and staff.
let backend: TestBackend;
const MAX_BYTES = 4096;

beforeAll(async () => {
  backend = await startTestBackend({ fileMaxBytes: MAX_BYTES });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
});
afterAll(async () => {
  await backend?.close();
});

const upload = (
  as: string | undefined,
  bytes: Buffer,
  query = "name=claim.pdf",
  options: { operator?: string; contentType?: string } = {},
) =>
  backend.send("POST", `/api/v1/files?${query}`, {
    as,
    operator: options.operator,
    body: bytes,
    headers: { "content-type": options.contentType ?? "application/octet-stream" },
  });

const fileCount = async () => (await backend.database.db.select().from(storedFiles)).length;

describe("uploading a file", () => {
  it("stores it with the type read from the bytes, whatever the client claims", async () => {
    const res = await upload(ALEX, SAMPLE_FILES.pdf, "name=receipt.png&purpose=attachment", {
      contentType: "image/png",
    });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json<Record<string, unknown>>();
    expect(file).toMatchObject({
      name: "receipt.png",
      contentType: "application/pdf",
      size: SAMPLE_FILES.pdf.length,
      purpose: "attachment",
    });
    const download = await backend.get(`/api/v1/files/${String(file.id)}/content`, { as: ALEX });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["content-disposition"]).toBe('attachment; filename="receipt.png.pdf"');
    expect(download.headers["cache-control"]).toBe("private, no-store");
    expect(Buffer.compare(download.rawPayload, SAMPLE_FILES.pdf)).toBe(0);
  });

  it.each(["png", "jpeg", "webp", "heic"] as const)("accepts a %s ID document", async (kind) => {
    const res = await upload(SAM, SAMPLE_FILES[kind], `name=id.${kind}&purpose=id_document`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ purpose: string }>().purpose).toBe("id_document");
  });

  it("refuses what is not a PDF or a photo (415, nothing written)", async () => {
    const before = await fileCount();
    const res = await upload(ALEX, Buffer.from("<html><script>alert(1)</script></html>"), "name=page.pdf", {
      contentType: "application/pdf",
    });
    expect(res.statusCode).toBe(415);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    expect(res.json<{ errors: { path: string }[] }>().errors[0]!.path).toBe("body");
    expect(await fileCount()).toBe(before);
  });

  it("refuses a file over the size limit (413, nothing written)", async () => {
    const before = await fileCount();
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(MAX_BYTES)]);
    const res = await upload(ALEX, big);
    expect(res.statusCode).toBe(413);
    expect(res.headers["content-type"]).toMatch(/problem\+json/);
    expect(await fileCount()).toBe(before);
  });

  it.each([
    ["", "name"],
    ["name=%20%20", "name"],
    ["name=x.pdf&purpose=selfie", "purpose"],
  ])("refuses the query %j naming %s (400, nothing written)", async (query, path) => {
    const before = await fileCount();
    const res = await upload(ALEX, SAMPLE_FILES.pdf, query);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain(path);
    expect(await fileCount()).toBe(before);
  });

  it("refuses an empty body naming it (400)", async () => {
    const res = await upload(ALEX, Buffer.alloc(0));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors[0]!.path).toBe("body");
  });

  it("needs a signed-in person (401)", async () => {
    const before = await fileCount();
    expect((await upload(undefined, SAMPLE_FILES.pdf)).statusCode).toBe(401);
    expect(await fileCount()).toBe(before);
  });
});

describe("who may download", () => {
  let fileId = "";
  beforeAll(async () => {
    const res = await upload(ALEX, SAMPLE_FILES.png, "name=screen.png");
    expect(res.statusCode, res.body).toBe(201);
    fileId = res.json<{ id: string }>().id;
  });
  const content = () => `/api/v1/files/${fileId}/content`;

  it("the owner and the operator's care agent", async () => {
    expect((await backend.get(content(), { as: ALEX })).statusCode).toBe(200);
    const asAgent = await backend.get(content(), { as: AGENT });
    expect(asAgent.statusCode).toBe(200);
    expect(Buffer.compare(asAgent.rawPayload, SAMPLE_FILES.png)).toBe(0);
  });

  it("not another subscriber (404, its existence untold), nor the record", async () => {
    expect((await backend.get(content(), { as: SAM })).statusCode).toBe(404);
    expect((await backend.get(`/api/v1/files/${fileId}`, { as: SAM })).statusCode).toBe(404);
  });

  it("not another operator's people, staff included", async () => {
    expect((await backend.get(content(), { as: TAYLOR, operator: "TMO" })).statusCode).toBe(404);
    expect((await backend.get(content(), { as: TMO_AGENT, operator: "TMO" })).statusCode).toBe(404);
    expect((await backend.get(content(), { as: TAYLOR, operator: "ATT" })).statusCode).toBe(403);
  });

  it("not without a token (401); a malformed id is a 400 naming it", async () => {
    expect((await backend.get(content())).statusCode).toBe(401);
    const bad = await backend.get("/api/v1/files/not-a-uuid/content", { as: ALEX });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { path: string }[] }>().errors[0]!.path).toBe("id");
  });

  it("lists: a subscriber sees their own files, staff every file of the operator", async () => {
    const mine = (await backend.get("/api/v1/files?pageSize=100", { as: ALEX })).json<{
      data: { id: string; ownerUid: string }[];
    }>();
    const uids = new Set(mine.data.map((f) => f.ownerUid));
    expect(uids.size).toBe(1);
    expect(mine.data.map((f) => f.id)).toContain(fileId);
    const all = (await backend.get("/api/v1/files?pageSize=100", { as: AGENT })).json<{
      data: { ownerUid: string }[];
    }>();
    expect(new Set(all.data.map((f) => f.ownerUid)).size).toBeGreaterThan(1);
    const tmo = (await backend.get("/api/v1/files?pageSize=100", { as: TMO_AGENT, operator: "TMO" })).json<{
      data: unknown[];
    }>();
    expect(tmo.data).toEqual([]);
  });

  it("keeps the bytes under a key the backend made up, never the client's file name", async () => {
    const [row] = await backend.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(row!.storageKey).toBe(`ATT/${fileId}`);
  });
});

describe("attachments to device claims", () => {
  const claim = (lineId: string, attachmentId: string | null | undefined) => ({
    lineId,
    incident: "damage",
    occurredOn: "2026-01-10",
    description: "The screen cracked when it fell.",
    ...(attachmentId === undefined ? {} : { attachmentId }),
  });
  const alexLine = async () =>
    (await backend.get("/api/v1/lines?pageSize=5", { as: ALEX })).json<{ data: { id: string }[] }>().data[0]!.id;

  it("a claim references the subscriber's own upload, and staff can open it", async () => {
    const file = (await upload(ALEX, SAMPLE_FILES.jpeg, "name=crack.jpg")).json<{ id: string }>();
    const res = await backend.send("POST", "/api/v1/device-claims", {
      as: ALEX,
      body: claim(await alexLine(), file.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ id: string; attachmentId: string }>();
    expect(created.attachmentId).toBe(file.id);
    const seen = (await backend.get(`/api/v1/device-claims/${created.id}`, { as: AGENT })).json<{
      attachmentId: string;
    }>();
    expect((await backend.get(`/api/v1/files/${seen.attachmentId}/content`, { as: AGENT })).statusCode).toBe(200);
  });

  it("without an attachment, as before", async () => {
    const res = await backend.send("POST", "/api/v1/device-claims", {
      as: ALEX,
      body: claim(await alexLine(), undefined),
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("refuses another person's file, naming the field (400, nothing written)", async () => {
    const samFile = (await upload(SAM, SAMPLE_FILES.png, "name=sam.png")).json<{ id: string }>();
    const before = (await backend.get("/api/v1/device-claims?pageSize=1", { as: AGENT })).json<{ total: number }>()
      .total;
    const res = await backend.send("POST", "/api/v1/device-claims", {
      as: ALEX,
      body: claim(await alexLine(), samFile.id),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { path: string }[] }>().errors.map((e) => e.path)).toContain("attachmentId");
    expect((await backend.get("/api/v1/device-claims?pageSize=1", { as: AGENT })).json<{ total: number }>().total).toBe(
      before,
    );
  });
});
