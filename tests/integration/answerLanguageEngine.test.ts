import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX } from "../support/fixtures";

// Issue 25: the refusals of the generic API (list queries, access by role, records, actions) and of
// sign-in and tenancy are words: Spanish for `accept-language: es`, the same English as ever without it.
let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend();
});
afterAll(async () => {
  await backend?.close();
});

type Problem = { title: string; detail: string; errors?: { path: string; message: string }[] };
type Options = NonNullable<Parameters<TestBackend["send"]>[2]>;
const ask = async (
  language: "es" | "en",
  method: "GET" | "POST",
  url: string,
  options: Omit<Options, "headers"> = {},
) => {
  const res = await backend.send(method, url, {
    as: ALEX,
    ...options,
    headers: { "accept-language": language },
  });
  return { status: res.statusCode, problem: res.json<Problem>() };
};
const messageAt = (problem: Problem, path: string) => problem.errors?.find((e) => e.path === path)?.message;

describe("the generic API's refusals in the request's language", () => {
  it("a list query's wrong filters: each parameter's message, the value's own issue worded for the reader too", async () => {
    const url = "/api/v1/lines?filter[bogus]=x&filter[status]=weird&filter[msisdn][gt]=1&filter[status][in]=a,b,c";
    const es = await ask("es", "GET", url);
    expect(es.status).toBe(400);
    expect(es.problem.title).toBe("Solicitud no válida");
    expect(es.problem.detail).toMatch(/^La consulta no es válida: /);
    expect(messageAt(es.problem, "filter[bogus]")).toMatch(
      /^no se puede filtrar por 'bogus'; se puede filtrar por: status, /,
    );
    expect(messageAt(es.problem, "filter[msisdn][gt]")).toBe(
      "el operador 'gt' no está permitido en 'msisdn'; permitidos: eq, startswith, contains",
    );
    // The status's own schema refuses "weird": zod's sentence, in Spanish by zod's locale.
    expect(messageAt(es.problem, "filter[status]")).toMatch(/^Opción inválida: se esperaba una de /);
    expect(messageAt(es.problem, "filter[status][in]")).toMatch(/^Opción inválida/);

    const en = await ask("en", "GET", url);
    expect(en.problem.detail).toMatch(/^The query is not valid: /);
    expect(messageAt(en.problem, "filter[bogus]")).toMatch(/^cannot filter by 'bogus'; filterable: status, /);
    expect(messageAt(en.problem, "filter[msisdn][gt]")).toBe(
      "operator 'gt' is not allowed on 'msisdn'; allowed: eq, startswith, contains",
    );
    expect(messageAt(en.problem, "filter[status]")).toMatch(/^Invalid option: expected one of /);
  });

  it("a list query's own checks on values and sorts", async () => {
    const es = await ask("es", "GET", "/api/v1/lines?filter[msisdn][contains]=&sort=-iccid&filter[id][in]=,");
    expect(messageAt(es.problem, "filter[msisdn][contains]")).toBe("no debe estar vacío");
    expect(messageAt(es.problem, "sort")).toMatch(/^no se puede ordenar por 'iccid'; se puede ordenar por: msisdn, /);
    expect(messageAt(es.problem, "filter[id][in]")).toBe("indica de 1 a 50 valores separados por comas");
    const en = await ask("en", "GET", "/api/v1/lines?filter[msisdn][contains]=&sort=-iccid&filter[id][in]=,");
    expect(messageAt(en.problem, "filter[msisdn][contains]")).toBe("must not be empty");
    expect(messageAt(en.problem, "sort")).toMatch(/^cannot sort by 'iccid'; sortable: msisdn, /);
    expect(messageAt(en.problem, "filter[id][in]")).toBe("give 1 to 50 comma-separated values");
  });

  it("access by role, a record that is not there, an action on a record in the wrong state", async () => {
    const role = await ask("es", "GET", "/api/v1/audit-events");
    expect(role.status).toBe(403);
    expect(role.problem).toMatchObject({
      title: "Prohibido",
      detail: "Con tu rol (subscriber) no puedes ver la lista de «audit-events».",
    });
    expect((await ask("en", "GET", "/api/v1/audit-events")).problem.detail).toBe(
      "Your role (subscriber) may not list audit-events.",
    );

    const missing = "/api/v1/lines/00000000-0000-4000-8000-000000000000";
    // Named as the portal names the resource, not by its path: a page that cannot find a record shows this.
    expect((await ask("es", "GET", missing)).problem.detail).toBe("No está en «Líneas»: no existe o no puedes verlo.");
    expect((await ask("en", "GET", missing)).problem.detail).toBe(
      "Not found in Lines: it does not exist, or it is not yours to see.",
    );
    // A label that only the resource's declaration words (its own messages), not the portal's dictionaries.
    const batch = await ask("es", "GET", "/api/v1/voucher-batches/00000000-0000-4000-8000-000000000000", { as: ADMIN });
    expect(batch.problem.detail).toBe("No está en «Cupones»: no existe o no puedes verlo.");

    const lines = await backend.send("GET", "/api/v1/lines?filter[status]=active", { as: ALEX });
    const active = lines.json<{ data: { id: string }[] }>().data[0]!;
    const restore = `/api/v1/lines/${active.id}/actions/restore`;
    const es = await ask("es", "POST", restore, { body: {} });
    expect(es.status).toBe(409);
    expect(es.problem.detail).toBe(
      "Ahora no puedes usar la acción «restore» en este registro: solo mientras status sea suspended (ahora es active).",
    );
    expect(messageAt(es.problem, "status")).toBe("solo mientras status sea suspended (ahora es active)");
    const en = await ask("en", "POST", restore, { body: {} });
    expect(en.problem.detail).toBe(
      "You cannot restore this record now: only while status is suspended (it is active).",
    );
  });

  it("a body with a field the resource does not have (refused before anything is written)", async () => {
    const lines = await backend.send("GET", "/api/v1/lines", { as: ALEX });
    const { accountId } = lines.json<{ data: { accountId: string }[] }>().data[0]!;
    const body = { accountId, category: "billing", subject: "A question", message: "About my last bill.", bogus: 1 };
    const es = await ask("es", "POST", "/api/v1/tickets", { body });
    expect(es.status).toBe(400);
    expect(es.problem.detail).toBe("Campo desconocido: bogus.");
    expect(messageAt(es.problem, "bogus")).toBe("campo desconocido");
    const en = await ask("en", "POST", "/api/v1/tickets", { body });
    expect(en.problem.detail).toBe("Unknown field: bogus.");
  });
});

describe("sign-in and tenancy refusals in the request's language", () => {
  it("no X-Operator, and no token", async () => {
    const es = await ask("es", "GET", "/api/v1/lines", { operator: null });
    expect(es.status).toBe(400);
    expect(es.problem.detail).toBe("El encabezado X-Operator debe llevar el código del operador.");
    expect(messageAt(es.problem, "X-Operator")).toBe("obligatorio, un código de operador como ATT");
    expect((await ask("en", "GET", "/api/v1/lines", { operator: null })).problem.detail).toBe(
      "The X-Operator header must carry the carrier code.",
    );

    const anonymous = await backend.app.inject({
      method: "GET",
      url: "/api/v1/lines",
      headers: { "x-operator": "ATT", "accept-language": "es-MX" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<Problem>()).toMatchObject({
      title: "No autenticado",
      detail: "Primero inicia sesión: envía 'Authorization: Bearer <token de ID de Firebase>'.",
    });
  });

  it("an operator the account does not belong to", async () => {
    const es = await ask("es", "GET", "/api/v1/lines", { operator: "TMO" });
    expect(es.status).toBe(403);
    expect(es.problem.detail).toBe("Esta cuenta no pertenece al operador TMO.");
    expect((await ask("en", "GET", "/api/v1/lines", { operator: "TMO" })).problem.detail).toBe(
      "This account does not belong to operator TMO.",
    );
  });
});
