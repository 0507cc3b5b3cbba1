import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account } from "../../src/resources/accounts";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem, type Problem } from "../support/problems";

// Issue 25 item 2: the refusals of staff, files, tickets' attachments and bulk jobs come back in the
// request's language (the portal sends the page's), and word for word as before in English.
let backend: TestBackend;
let adminUid: string;
let alexAccount: Account;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  adminUid = (await backend.auth.getUserByEmail(ADMIN)).uid;
  alexAccount = (await backend.get("/api/v1/accounts", { as: ALEX })).json<{ data: Account[] }>().data[0]!;
});
afterAll(async () => {
  await backend?.close();
});

type Send = { as: string; body?: unknown; headers?: Record<string, string> };
/** The same request in Spanish and in English: both problems, checked to have the status. */
async function inBoth(method: "GET" | "POST" | "PATCH", url: string, status: number, options: Send) {
  const answer = async (language: string) =>
    expectProblem(
      await backend.send(method, url, {
        ...options,
        headers: { ...options.headers, "accept-language": language },
      }),
      status,
    );
  return { es: await answer("es"), en: await answer("en") };
}
const messageAt = (problem: Problem, path: string) => problem.errors?.find((e) => e.path === path)?.message;

describe("staff refusals in the request's language", () => {
  it("an agent managing staff, an admin changing themselves, an unknown member, a uid that cannot be one", async () => {
    const agent = await inBoth("PATCH", `/api/v1/staff/${adminUid}`, 403, {
      as: AGENT,
      body: { disabled: false, reason: "language check" },
    });
    expect(agent.es.detail).toBe("Solo los administradores del operador gestionan al personal.");
    expect(agent.en.detail).toBe("Only the operator's admins manage staff.");

    const self = await inBoth("PATCH", `/api/v1/staff/${adminUid}`, 422, {
      as: ADMIN,
      body: { disabled: false, reason: "language check" },
    });
    expect(self.es.detail).toBe("No puedes cambiar tu propio rol ni desactivarte; pídeselo a otro administrador.");
    expect(messageAt(self.es, "uid")).toBe("eres tú");
    expect(self.en.detail).toBe("You cannot change your own role or disable yourself; ask another admin.");
    expect(messageAt(self.en, "uid")).toBe("is yourself");

    const unknown = await inBoth("PATCH", "/api/v1/staff/nobody-here", 404, {
      as: ADMIN,
      body: { disabled: false, reason: "language check" },
    });
    expect(unknown.es.detail).toBe("Ese miembro del personal no existe.");
    expect(unknown.en.detail).toBe("No such staff member.");

    const badUid = await inBoth("PATCH", "/api/v1/staff/no%20spaces", 400, {
      as: ADMIN,
      body: { disabled: false, reason: "language check" },
    });
    expect(messageAt(badUid.es, "id")).toBe("letras, dígitos, - y _");
    expect(messageAt(badUid.en, "id")).toBe("letters, digits, - and _");
  });

  it("an invitation without an Idempotency-Key", async () => {
    const missing = await inBoth("POST", "/api/v1/staff", 400, {
      as: ADMIN,
      body: { email: `nobody-${randomUUID()}@example.test`, role: "agent" },
    });
    const said = (p: Problem) => p.errors?.map((e) => e.message) ?? [];
    expect(said(missing.es)).toContain("obligatorio: una clave única por invitación, por ejemplo, un UUID");
    expect(said(missing.en)).toContain("required: a unique key per invitation, e.g. a UUID");
  });
});

describe("file refusals in the request's language", () => {
  const upload = (bytes: Buffer) => ({
    as: ALEX,
    body: bytes,
    headers: { "content-type": "application/octet-stream" },
  });

  it("no bytes, bytes of a type not accepted, an id that is not a UUID, a file that does not exist", async () => {
    const empty = await inBoth("POST", "/api/v1/files?name=x.pdf", 400, upload(Buffer.alloc(0)));
    expect(empty.es.detail).toBe("El cuerpo de la solicitud debe ser el contenido del archivo (sus bytes).");
    expect(messageAt(empty.es, "body")).toBe("envía el contenido del archivo");
    expect(empty.en.detail).toBe("The body must be the file's bytes.");

    const html = await inBoth("POST", "/api/v1/files?name=x.pdf", 415, upload(Buffer.from("<html></html>")));
    expect(html.es.detail).toBe("Solo se aceptan archivos PDF, PNG, JPEG, WebP y HEIC.");
    expect(messageAt(html.es, "body")).toBe("no es un archivo PDF, PNG, JPEG, WebP ni HEIC");
    expect(html.en.detail).toBe("Only PDF, PNG, JPEG, WebP and HEIC files are accepted.");

    const notUuid = await inBoth("GET", "/api/v1/files/not-a-uuid/content", 400, { as: ALEX });
    expect(messageAt(notUuid.es, "id")).toBe("debe ser un UUID");
    expect(messageAt(notUuid.en, "id")).toBe("must be a UUID");

    const absent = await inBoth("GET", `/api/v1/files/${randomUUID()}/content`, 404, { as: ALEX });
    expect(absent.es.detail).toBe("Ese archivo no existe.");
    expect(absent.en.detail).toBe("No such file.");
  });

  it("a ticket's attachment that is not the writer's upload", async () => {
    const ticket = {
      accountId: alexAccount.id,
      category: "sim",
      subject: "Language check",
      message: "An attachment that does not exist.",
      attachmentIds: [randomUUID()],
    };
    const refused = await inBoth("POST", "/api/v1/tickets", 400, { as: ALEX, body: ticket });
    expect(refused.es.detail).toBe(
      "Los archivos adjuntos no son válidos: attachmentIds.0: no subiste ningún archivo adjunto con este id",
    );
    expect(messageAt(refused.es, "attachmentIds.0")).toBe("no subiste ningún archivo adjunto con este id");
    expect(refused.en.detail).toBe(
      "The attachments are not valid: attachmentIds.0: no attachment with this id that you uploaded",
    );
  });
});

describe("bulk job refusals in the request's language", () => {
  const header = "accountId,msisdn,iccid,simType,planId,cycleDay";

  it("a subscriber, a header without its columns; a dry run's row errors", async () => {
    const csv = `${header}\n00000000-0000-4000-8000-000000000000,+12025550987,8901234567890123456,physical,00000000-0000-4000-8000-000000000001,5`;
    const subscriber = await inBoth("POST", "/api/v1/bulk-jobs", 403, {
      as: ALEX,
      body: { kind: "import-lines", csv, dryRun: true, reason: "new SIM stock" },
    });
    expect(subscriber.es.detail).toBe("Tu rol (cliente) no puede iniciar trabajos masivos.");
    expect(subscriber.en.detail).toBe("Your role (subscriber) may not start bulk jobs.");

    const columns = await inBoth("POST", "/api/v1/bulk-jobs", 400, {
      as: AGENT,
      body: { kind: "import-lines", csv: "msisdn,iccid\n+12025550199,8900000000000000000", reason: "new SIM stock" },
    });
    expect(columns.es.detail).toBe(`La fila de encabezado debe nombrar las columnas ${header.split(",").join(", ")}.`);
    expect(messageAt(columns.es, "csv")).toBe("faltan las columnas: accountId, simType, planId, cycleDay");
    expect(columns.en.detail).toBe(`The header row must name the columns ${header.split(",").join(", ")}.`);
    expect(messageAt(columns.en, "csv")).toBe("missing columns: accountId, simType, planId, cycleDay");

    const dryRun = async (language: string) => {
      const res = await backend.send("POST", "/api/v1/bulk-jobs", {
        as: AGENT,
        body: { kind: "import-lines", csv, dryRun: true, reason: "new SIM stock" },
        headers: { "accept-language": language },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { errors } = res.json<{ errors: { row: number; field: string; message: string }[] }>();
      return (field: string) => errors.find((e) => e.row === 2 && e.field === field)?.message;
    };
    expect((await dryRun("es"))("accountId")).toBe("esa cuenta no existe");
    expect((await dryRun("es"))("planId")).toBe("ese plan no existe");
    expect((await dryRun("en"))("accountId")).toBe("no such account");
  });
});
