import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, storedFiles, ticketAttachments, ticketMessages, tickets } from "../../server/db/schema";
import type { Account } from "../../src/resources/accounts";
import type { Ticket } from "../../src/resources/tickets";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { AGENT, ALEX, SAM, TMO_AGENT } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { SAMPLE_FILES } from "../support/sampleFiles";
import { expectProblem } from "../support/problems";

// Files attached to tickets (issue 12 item 3): uploaded first through the one file store
// (POST /files), referenced by id when a ticket is opened or answered, downloadable by the
// ticket's holder and the operator's staff only.
const TICKETS = "/api/v1/tickets";
const MAX_BYTES = 4096;

let backend: TestBackend;
let samAccount: Account;

const upload = (as: string | undefined, bytes: Buffer, query = "name=photo.png", operator?: string) =>
  backend.send("POST", `/api/v1/files?${query}`, {
    as,
    operator,
    body: bytes,
    headers: { "content-type": "application/octet-stream" },
  });

async function uploaded(as: string, bytes: Buffer, query?: string, operator?: string) {
  const res = await upload(as, bytes, query, operator);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; name: string; size: number }>();
}

const content = (fileId: string) => `/api/v1/files/${fileId}/content`;
const reply = (id: string, as: string, body: Record<string, unknown>, operator?: string) =>
  backend.send("POST", `${TICKETS}/${id}/actions/reply`, { as, body, operator });
const newTicket = (attachmentIds?: unknown) => ({
  accountId: samAccount.id,
  category: "sim",
  subject: "SIM card damaged",
  message: "The SIM tray bent, photo attached.",
  ...(attachmentIds === undefined ? {} : { attachmentIds }),
});

const countOf = async (
  table: typeof tickets | typeof ticketMessages | typeof ticketAttachments | typeof auditEvents | typeof storedFiles,
) => (await backend.database.db.select({ n: count() }).from(table))[0]!.n;
const snapshot = async () => ({
  tickets: await countOf(tickets),
  messages: await countOf(ticketMessages),
  attachments: await countOf(ticketAttachments),
  files: await countOf(storedFiles),
  audit: await countOf(auditEvents),
});

beforeAll(async () => {
  backend = await startTestBackend({ fileMaxBytes: MAX_BYTES });
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  [samAccount] = (await backend.get("/api/v1/accounts", { as: SAM })).json<{ data: Account[] }>().data as [Account];
});

afterAll(async () => {
  await backend?.close();
});

describe("attaching files to a ticket", () => {
  it("a subscriber opens a ticket with a photo; care answers with a PDF; both are listed with name and size and both sides download them", async () => {
    const photo = await uploaded(SAM, SAMPLE_FILES.png, "name=bent-tray.png");
    const res = await backend.send("POST", TICKETS, { as: SAM, body: newTicket([photo.id]) });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = res.json<Ticket>();
    expect(ticket.attachmentIds).toEqual([photo.id]);
    expect(ticket.attachments).toEqual([
      { id: photo.id, name: "bent-tray.png", contentType: "image/png", size: SAMPLE_FILES.png.length },
    ]);

    const guide = await uploaded(AGENT, SAMPLE_FILES.pdf, "name=sim-replacement.pdf");
    const answered = await reply(ticket.id, AGENT, {
      message: "Here is how to order a new SIM.",
      attachmentIds: [guide.id],
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const after = answered.json<Ticket>();
    expect(after.messages).toEqual([
      expect.objectContaining({
        authorRole: "agent",
        attachments: [
          { id: guide.id, name: "sim-replacement.pdf", contentType: "application/pdf", size: SAMPLE_FILES.pdf.length },
        ],
      }),
    ]);

    // A reply without files still works, and carries none.
    const plain = (await reply(ticket.id, SAM, { message: "Thanks, ordering now." })).json<Ticket>();
    expect(plain.messages.at(-1)!.attachments).toEqual([]);

    // The holder downloads care's file; care downloads the holder's.
    const samGets = await backend.get(content(guide.id), { as: SAM });
    expect(samGets.statusCode).toBe(200);
    expect(Buffer.compare(samGets.rawPayload, SAMPLE_FILES.pdf)).toBe(0);
    const agentGets = await backend.get(content(photo.id), { as: AGENT });
    expect(agentGets.statusCode).toBe(200);
    expect(Buffer.compare(agentGets.rawPayload, SAMPLE_FILES.png)).toBe(0);
    expect((await backend.get(content(photo.id), { as: SAM })).statusCode).toBe(200);

    // Nobody else: another subscriber, another operator's staff (404, untold); no token (401).
    for (const fileId of [photo.id, guide.id]) {
      expectProblem(await backend.get(content(fileId), { as: ALEX }), 404);
      expectProblem(await backend.get(content(fileId), { as: TMO_AGENT, operator: "TMO" }), 404);
      expectProblem(await backend.get(content(fileId)), 401);
    }
    expectProblem(await backend.get(`${TICKETS}/${ticket.id}`, { as: ALEX }), 404);
  });

  it("the store refuses what is not a PDF or a photo (415) and what is too large (413): no file to attach", async () => {
    const before = await snapshot();
    expectProblem(await upload(SAM, Buffer.from("MZ\x90\x00 not a photo", "latin1"), "name=photo.png"), 415, "body");
    const tooLarge = await upload(SAM, Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(MAX_BYTES)]));
    expect(tooLarge.statusCode).toBe(413);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses, at attachmentIds and changing nothing: another's file, an unknown id, an ID document, a file already attached, the same file twice, too many, not a list", async () => {
    const alexFile = await uploaded(ALEX, SAMPLE_FILES.png, "name=alex.png");
    const idDocument = await uploaded(SAM, SAMPLE_FILES.jpeg, "name=passport.jpg&purpose=id_document");
    const samFile = await uploaded(SAM, SAMPLE_FILES.png, "name=mine.png");
    const attachedAlready = await uploaded(SAM, SAMPLE_FILES.png, "name=once.png");
    const first = (
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket([attachedAlready.id]) })
    ).json<Ticket>();
    const agentFile = await uploaded(AGENT, SAMPLE_FILES.pdf, "name=agent.pdf");

    const before = await snapshot();
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket([alexFile.id]) }),
      400,
      "attachmentIds.0",
    );
    expectProblem(
      await backend.send("POST", TICKETS, {
        as: SAM,
        body: newTicket([samFile.id, "00000000-0000-4000-8000-000000000000"]),
      }),
      400,
      "attachmentIds.1",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket([idDocument.id]) }),
      400,
      "attachmentIds.0",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket([attachedAlready.id]) }),
      400,
      "attachmentIds.0",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket([samFile.id, samFile.id]) }),
      400,
      "attachmentIds",
    );
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket(Array.from({ length: 6 }, () => samFile.id)) }),
      400,
      "attachmentIds",
    );
    expectProblem(await backend.send("POST", TICKETS, { as: SAM, body: newTicket(samFile.id) }), 400, "attachmentIds");
    expectProblem(
      await backend.send("POST", TICKETS, { as: SAM, body: newTicket(["not-a-uuid"]) }),
      400,
      "attachmentIds.0",
    );
    // Replies: care cannot pass on a subscriber's upload, nor a subscriber care's; another operator cannot reach the ticket.
    expectProblem(
      await reply(first.id, AGENT, { message: "See this.", attachmentIds: [samFile.id] }),
      400,
      "attachmentIds.0",
    );
    expectProblem(
      await reply(first.id, SAM, { message: "And this.", attachmentIds: [agentFile.id] }),
      400,
      "attachmentIds.0",
    );
    expectProblem(await reply(first.id, ALEX, { message: "Mine too.", attachmentIds: [alexFile.id] }), 404);
    const tmoFile = await uploaded(TMO_AGENT, SAMPLE_FILES.pdf, "name=tmo.pdf", "TMO");
    const afterTmoUpload = await snapshot();
    expectProblem(
      await reply(first.id, TMO_AGENT, { message: "From elsewhere.", attachmentIds: [tmoFile.id] }, "TMO"),
      404,
    );
    expectProblem(
      await reply(first.id, SAM, { message: "Theirs.", attachmentIds: [tmoFile.id] }),
      400,
      "attachmentIds.0",
    );
    expectProblem(await backend.send("POST", TICKETS, { body: newTicket([samFile.id]) }), 401);
    expect(await snapshot()).toEqual({ ...before, files: afterTmoUpload.files, audit: afterTmoUpload.audit });
    expect(afterTmoUpload.files).toBe(before.files + 1);

    // Still attachable where it belongs.
    const ok = await reply(first.id, SAM, { message: "This one is mine.", attachmentIds: [samFile.id] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(
      ok
        .json<Ticket>()
        .messages.at(-1)!
        .attachments.map((a) => a.id),
    ).toEqual([samFile.id]);
  });
});
