import type { SwaggerOptions } from "@fastify/swagger";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { APP_VERSION } from "#config/operator";
import { en } from "#i18n/en";
import { PROBLEM_DESCRIPTIONS } from "./problems";
import type { DeclaredResource } from "../lib/declaredResource";

// The OpenAPI document GET /api/openapi.json serves: a contract clients generate from, linted with
// Redocly's `recommended` rules in npm test (tests/integration/openApiContract.test.ts). Routes give
// their schemas, operationId and summary (the route factory, or server/openapi/routeDoc.ts); this
// file adds what belongs to the whole document and completes what a route cannot know.

const DESCRIPTION = [
  "The common backend of the operator's self-service portal: subscribers manage their lines, plans and bills; care agents and admins act for them.",
  "",
  "- **Authentication**: `Authorization: Bearer <Firebase ID token>`. Machine callers use `Authorization: ApiKey <key>` on service paths.",
  "- **Tenancy**: every request carries `X-Operator` (the carrier code, e.g. `ATT`); one operator never sees another's data.",
  "- **Errors**: RFC 9457 `application/problem+json` `{type, title, status, detail, errors?: [{path, message}]}`; `errors[].path` names the field at fault.",
  "- **Lists**: `?page=1&pageSize=20&sort=-createdAt,name&q=text&filter[field][op]=value` answer `{data, total}`.",
  "- **Retries**: an `Idempotency-Key` header on a POST that moves money or creates something replays the first answer.",
  '- **Money**: integer minor units with an ISO currency, `{amount: 1500, currency: "USD"}`.',
].join("\n");

/** Tags of routes that are not a declared resource; a resource's tag is its name. */
const OTHER_TAGS = [
  { name: "health", description: "Whether this backend and its database answer (no sign-in)." },
  {
    name: "identity",
    description:
      "The signed-in user: claims, becoming a subscriber, signing out everywhere, SMS allowance before a phone sign-in.",
  },
  { name: "security", description: "The operator's security policy (staff second factor)." },
  {
    name: "account-alerts",
    description:
      "Alerts of account changes and their \"This wasn't me\" links (no sign-in: the link's token is the proof).",
  },
  { name: "live", description: "Server-sent events announcing changes of records the caller may list." },
  {
    name: "number-inventory",
    description:
      "The operator's free numbers by area code, and a 15-minute hold on one, for a new line or a change of number.",
  },
  { name: "home", description: "What the signed-in subscriber's home page shows, in one request." },
  { name: "kpis", description: "The operator's business figures over a period, for its admins." },
  {
    name: "billing-runs",
    description:
      "The carrier's daily job (prepaid renewals, grace, postpaid cycle close, overdue bills, add-on renewals) run as of a day by the operator's admins.",
  },
  {
    name: "configuration",
    description: "Feature flags the portal and the backend apply (Remote Config with in-code defaults).",
  },
];

const labelOf = (resource: DeclaredResource) =>
  resource.messages?.en[resource.label] ?? (en as Record<string, string>)[resource.label] ?? resource.name;

/** One tag per declared resource, described from its declaration (label, actions, who may list it). */
export function resourceTags(resources: readonly DeclaredResource[]) {
  return resources.map((resource) => {
    const actions = Object.keys(resource.actions ?? {});
    const listedBy = Object.keys(resource.access.list ?? {});
    return {
      name: resource.name,
      description: [
        `${labelOf(resource)}: list and read records${resource.form?.create.length ? ", create" : ""}${resource.form?.edit.length ? ", edit" : ""}${resource.access.delete ? ", delete" : ""}.`,
        actions.length ? `Actions: ${actions.join(", ")}.` : "",
        listedBy.length
          ? `Listed by ${listedBy.join(", ")}${resource.access.list?.subscriber === "own" ? " (subscribers: their own records)" : ""}.`
          : "",
      ]
        .filter(Boolean)
        .join(" "),
    };
  });
}

/** The parts of an OpenAPI document completed here; everything else passes through untouched. */
interface SchemaObject {
  $ref?: string;
  type?: unknown;
  properties?: Record<string, unknown>;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, { schema?: SchemaObject } | undefined>;
}
interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths?: Record<string, Partial<Record<string, OperationObject>>>;
  components?: { schemas?: Record<string, unknown> };
}
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const SUCCESS_DESCRIPTIONS: Record<string, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" };

/** Whether a response schema is the problem shape (server/errors.ts sends every error as one). */
/** The one schema every problem response refers to. */
const PROBLEM = "Problem";

const isProblem = (schema: SchemaObject | undefined): schema is SchemaObject =>
  !!schema &&
  schema.type === "object" &&
  ["type", "title", "status", "detail"].every((key) => schema.properties?.[key]);

/** `GET /api/v1/invoices/{id}/pdf` → `getInvoicesIdPdf`: the fallback of a route that names no operationId. */
const fallbackOperationId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api(\/v1)?/, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

/**
 * Completes every operation the same way, whoever wrote its route: an error response that is a
 * problem becomes `application/problem+json` with the shared schema and a description of when it
 * happens; success responses get a real description; an operation without operationId or summary
 * (a route that did not use routeDoc) gets one from its method and path, so the document stays a
 * valid contract and client generators never see a gap.
 */
export function completeDocument<D extends OpenApiDocument>(document: D): D {
  let problem: SchemaObject | undefined;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.operationId ??= fallbackOperationId(method, path);
      operation.summary ??= operation.description?.split(/(?<=\.)\s/)[0] ?? `${method.toUpperCase()} ${path}`;
      const responses = operation.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (Number(status) >= 400 && isProblem(schema)) {
          problem ??= schema;
          responses[status] = {
            description: PROBLEM_DESCRIPTIONS[Number(status)] ?? "The request was refused (problem details).",
            content: { "application/problem+json": { schema: { $ref: `#/components/schemas/${PROBLEM}` } } },
          };
        } else if (!response.description || response.description === "Default Response") {
          response.description =
            SUCCESS_DESCRIPTIONS[status] ?? (Number(status) >= 500 ? "The service is not available" : "Response");
        }
      }
    }
  }
  if (problem) {
    document.components ??= {};
    document.components.schemas = { ...document.components.schemas, [PROBLEM]: problem };
  }
  return document;
}

/** The @fastify/swagger options of the backend: document-wide parts, zod schemas, completion. */
export function openApiOptions(resources: readonly DeclaredResource[]): SwaggerOptions {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Common backend: operator self-service API",
        version: APP_VERSION,
        description: DESCRIPTION,
        // The product is not open source: the operator's terms govern its use (SPDX custom reference).
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      // Relative to the document: every path is absolute (/api/...) on the backend that serves it.
      servers: [{ url: "/", description: "The backend that serves this document" }],
      tags: [...resourceTags(resources), ...OTHER_TAGS],
      components: {
        securitySchemes: {
          firebaseIdToken: { type: "http", scheme: "bearer", bearerFormat: "Firebase ID token" },
          ingestApiKey: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "ApiKey <key>, keys from INGEST_API_KEYS",
          },
          gatewaySignature: {
            type: "apiKey",
            in: "header",
            name: "x-gateway-signature",
            description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> with the gateway\'s webhook secret',
          },
        },
      },
      security: [{ firebaseIdToken: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: ({ openapiObject }: { openapiObject: OpenApiDocument }) => completeDocument(openapiObject),
  } as SwaggerOptions;
}
