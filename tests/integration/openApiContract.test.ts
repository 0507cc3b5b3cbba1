import { createConfig, lintFromString } from "@redocly/openapi-core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp } from "../../server/app";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { createTokenVerifier } from "../../server/auth/tokenVerifier";
import type { Database } from "../../server/db/client";
import { resources } from "../../src/resources";
import { idSchema, isoDateTime } from "../../src/resources/common";
import { defineResource } from "../../src/resources/define";
import type { DeclaredResource } from "../../server/lib/declaredResource";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";
import { openTestDatabase } from "../support/testDatabase";

// The OpenAPI document is a contract clients generate from: Redocly's `recommended` rules pass with
// 0 errors and 0 warnings, and every 4XX answer is an RFC 9457 problem. It holds for the product's
// resources and for one declared here as a product owner would add it, with no OpenAPI of its own:
// the route factory and server/openapi give it everything.

const giftCards = defineResource({
  name: "gift-cards",
  label: "resources.gift-cards.label",
  icon: "GiftOutlined",
  schema: z.object({
    id: idSchema,
    code: z.string().min(4).max(40),
    status: z.enum(["issued", "used", "void"]),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  }),
  recordTitle: "code",
  fields: {
    code: { label: "fields.code", kind: "text" },
    status: { label: "fields.status", kind: "enum", options: ["issued", "used", "void"] },
  },
  list: {
    columns: ["code", "status"],
    defaultSort: [{ field: "code", order: "asc" }],
    sortable: ["code"],
    filters: { status: ["eq", "in"] },
    search: { placeholder: "fields.code", fields: ["code"] },
  },
  show: ["code", "status"],
  form: { create: ["code"], edit: ["code"] },
  defaults: { status: "issued" },
  actions: {
    "mark-used": { label: "actions.markUsed", when: { status: ["issued"] }, set: { status: "used" } },
    void: { label: "actions.void", when: { status: ["issued"] }, set: { status: "void" }, reason: true },
  },
  access: {
    list: { subscriber: "own", admin: "all" },
    show: { subscriber: "own", admin: "all" },
    create: { admin: "all" },
    edit: { admin: "all" },
    delete: { admin: "all" },
    "mark-used": { subscriber: "own", admin: "all" },
    void: { admin: "all" },
  },
  messages: {
    en: { "resources.gift-cards.label": "Gift cards" },
    es: { "resources.gift-cards.label": "Tarjetas regalo" },
  },
  source: "backend",
  audit: true,
});

/** The parts of the served OpenAPI document these checks read. */
interface OpenApiResponse {
  content?: Record<string, { schema: { $ref?: string } }>;
}
interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  /** `[]`: no sign-in at all (a one-use link's token is the proof). */
  security?: unknown[];
  responses: Record<string, OpenApiResponse>;
}
interface OpenApiDocument {
  paths: Record<string, Partial<Record<string, OpenApiOperation>>>;
  tags: { name: string; description: string }[];
  components: { schemas: Record<string, { required?: string[] }> };
}
const METHODS = ["get", "put", "post", "delete", "patch"];

let database: Database;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

/** The document a backend with these resources serves, as a client downloads it. */
async function servedDocument(declared: readonly DeclaredResource[]): Promise<string> {
  const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
  const app = await buildApp({
    database,
    verifier: createTokenVerifier(auth),
    auth,
    operator: "ATT",
    logLevel: "silent",
    resources: declared,
  });
  apps.push(app);
  const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
  expect(response.statusCode).toBe(200);
  return response.body;
}

async function lint(source: string) {
  const problems = await lintFromString({
    source,
    absoluteRef: "openapi.json",
    config: await createConfig({ extends: ["recommended"] }),
  });
  const described = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
  return {
    errors: problems.filter((p) => p.severity === "error").length,
    warnings: problems.filter((p) => p.severity === "warn").length,
    described,
  };
}

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      id: `${method.toUpperCase()} ${path}`,
      operation: item[method]!,
    })),
  );

describe.each([
  ["the product's resources", resources],
  ["the product's resources and one a product owner just declared", [...resources, giftCards]],
])("the OpenAPI document with %s", (_name, declared) => {
  let source: string;
  let document: OpenApiDocument;

  beforeAll(async () => {
    source = await servedDocument(declared);
    document = JSON.parse(source) as OpenApiDocument;
  });

  it("passes Redocly's recommended rules with 0 errors and 0 warnings", async () => {
    const { errors, warnings, described } = await lint(source);
    console.log(
      `OpenAPI lint (recommended), ${operationsOf(document).length} operations${declared.length > resources.length ? " with gift-cards" : ""}: ${errors} errors, ${warnings} warnings`,
    );
    expect(described).toEqual([]);
    expect({ errors, warnings }).toEqual({ errors: 0, warnings: 0 });
  });

  it("answers every refusal as application/problem+json with the one Problem schema", () => {
    const wrong = operationsOf(document).flatMap(({ id, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => status.startsWith("4"))
        .filter(
          ([, response]) =>
            Object.keys(response.content ?? {}).join() !== "application/problem+json" ||
            response.content?.["application/problem+json"]?.schema.$ref !== "#/components/schemas/Problem",
        )
        .map(([status]) => `${id} ${status}`),
    );
    expect(wrong).toEqual([]);
    expect(document.components.schemas.Problem?.required).toEqual(["type", "title", "status", "detail"]);
  });

  it("tags every operation with a declared resource or a described tag", () => {
    const described = new Map<string, string>(document.tags.map((tag) => [tag.name, tag.description]));
    for (const resource of declared) expect(described.get(resource.name), resource.name).toMatch(/\w/);
    const untagged = operationsOf(document).filter(
      ({ operation }) => !operation.tags?.every((tag: string) => described.has(tag)),
    );
    expect(untagged.map((o) => o.id)).toEqual([]);
  });
});

it("names the declared resource's operations after it, and every signed-in operation says it can answer 401 and 403", async () => {
  const document = JSON.parse(await servedDocument([...resources, giftCards])) as OpenApiDocument;
  const ids = operationsOf(document)
    .filter(({ id }) => id.includes("/gift-cards"))
    .map(({ id, operation }) => `${id} ${operation.operationId}`);
  expect(ids.sort()).toEqual(
    [
      "GET /api/v1/gift-cards listGiftCards",
      "POST /api/v1/gift-cards createGiftCards",
      "GET /api/v1/gift-cards/{id} getGiftCards",
      "PATCH /api/v1/gift-cards/{id} updateGiftCards",
      "DELETE /api/v1/gift-cards/{id} deleteGiftCards",
      "POST /api/v1/gift-cards/{id}/actions/mark-used markUsedGiftCards",
      "POST /api/v1/gift-cards/{id}/actions/void voidGiftCards",
    ].sort(),
  );
  const missing = operationsOf(document)
    .filter(({ id }) => id.includes(" /api/v1/"))
    .filter(({ operation }) => operation.security?.length !== 0) // declared as needing no sign-in
    .filter(({ operation }) => !operation.responses["401"] || !operation.responses["403"])
    .map(({ id }) => id);
  expect(missing).toEqual([]);
  // The one /api/v1 operation that needs no sign-in says so, and answers no 401.
  const open = operationsOf(document).filter(
    ({ id, operation }) => id.includes(" /api/v1/") && operation.security?.length === 0,
  );
  expect(open.map(({ id }) => id)).toEqual(["POST /api/v1/public/this-wasnt-me"]);
  expect(open[0]!.operation.responses["401"]).toBeUndefined();
});
