import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX } from "../support/fixtures";

// Issue 25: the backend words its problems in the request's language (Accept-Language, which the
// portal sets to the page's): the title, the detail and each field's message; English otherwise.
let backend: TestBackend;

beforeAll(async () => {
  backend = await startTestBackend({ minAppVersion: "3.2.1" });
});
afterAll(async () => {
  await backend?.close();
});

type Problem = { title: string; detail: string; errors?: { path: string; message: string }[] };
const ask = async (language: string | undefined, method: "GET" | "POST", url: string, body?: unknown) => {
  const res = await backend.send(method, url, {
    as: ALEX,
    ...(body !== undefined && { body }),
    ...(language && { headers: { "accept-language": language } }),
  });
  return { status: res.statusCode, problem: res.json<Problem>() };
};

describe("the language of answers", () => {
  it("a body that is not valid: in Spanish for es, es-MX or es ranked over fr; in English without a header", async () => {
    for (const language of ["es", "es-MX,es;q=0.9", "fr, es;q=0.5"]) {
      const { status, problem } = await ask(language, "POST", "/api/v1/tickets", { subject: 7 });
      expect(status).toBe(400);
      expect(problem.title).toBe("Solicitud no válida");
      expect(problem.detail).toMatch(/^El cuerpo no es válido: /);
      // zod's own sentence, worded again by its Spanish locale (with what it was given: a number).
      expect(problem.errors).toContainEqual({
        path: "subject",
        message: "Entrada inválida: se esperaba texto, recibido número",
      });
    }
    for (const language of [undefined, "en-US", "de"]) {
      const { problem } = await ask(language, "POST", "/api/v1/tickets", { subject: 7 });
      expect(problem.title).toBe("Bad Request");
      expect(problem.detail).toMatch(/^The body is not valid: /);
      expect(problem.errors).toContainEqual({
        path: "subject",
        message: "Invalid input: expected string, received number",
      });
    }
  });

  it("a declared message (a dictionary key) is filled in the request's language", async () => {
    const spanish = await ask("es", "POST", "/api/v1/tickets", { subject: "ab", body: "x", category: "billing" });
    const english = await ask("en", "POST", "/api/v1/tickets", { subject: "ab", body: "x", category: "billing" });
    expect(spanish.status).toBe(400);
    const field = (p: Problem) => p.errors?.find((e) => e.path === "subject")?.message;
    expect(field(spanish.problem)).toBeTruthy();
    expect(field(spanish.problem)).not.toBe(field(english.problem));
    expect(field(english.problem)).toMatch(/characters/);
    expect(field(spanish.problem)).toMatch(/caracteres/);
  });

  it("an unknown route and an old portal are answered in Spanish too", async () => {
    const missing = await ask("es", "GET", "/api/v1/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.problem).toMatchObject({
      title: "No encontrado",
      detail: "No existe la ruta GET /api/v1/nothing-here.",
    });
    const old = await backend.send("GET", "/api/v1/lines", {
      as: ALEX,
      headers: { "x-app-version": "3.0.0", "accept-language": "es" },
    });
    expect(old.statusCode).toBe(426);
    expect(old.json<Problem>()).toMatchObject({
      title: "Actualización necesaria",
      errors: [{ path: "headers.x-app-version", message: "debe ser 3.2.1 o posterior" }],
    });
  });
});
