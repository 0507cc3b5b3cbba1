import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Line } from "../../src/resources/lines";
import type { Plan } from "../../src/resources/plans";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ALEX, SAM, AGENT, ADMIN, TAYLOR, TMO_AGENT, TMO_ADMIN } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";
import { anyNumber } from "../support/matchers";

// The real backend (real database per TEST_DB, real Auth emulator), one per file. Seeded with
// operator ATT (demo data: 3 sign-in lines + 40 generated) and operator TMO (tests/support/fixtures).

let backend: TestBackend;
let samLineId: string;
let tmoLineId: string;
let draftPlanId: string;
let attPlanIds: string[];

type List<T> = { data: T[]; total: number };
const body = <T>(res: LightMyRequestResponse) => res.json<T>();

async function list<T>(url: string, as: string, operator?: string): Promise<List<T>> {
  const res = await backend.get(url, { as, operator });
  expect(res.statusCode, `${url} as ${as}: ${res.body}`).toBe(200);
  return body<List<T>>(res);
}

/** A problem response (RFC 9457) with the given status; returns its body. */

/** Decodes an (unsigned, emulator) ID token's payload, edits it and re-encodes it. */
function tamper(token: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
  edit(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
}

const msisdns = (rows: { msisdn: string }[]) => rows.map((r) => r.msisdn);

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  const sam = await list<Line>(`/api/v1/lines?q=${encodeURIComponent("+12025550103")}`, AGENT);
  samLineId = sam.data[0]!.id;
  const tmo = await list<Line>("/api/v1/lines", TAYLOR, "TMO");
  tmoLineId = tmo.data[0]!.id;
  const plans = await list<Plan>("/api/v1/plans?pageSize=100", AGENT);
  attPlanIds = plans.data.map((p) => p.id);
  draftPlanId = plans.data.find((p) => p.code === "POST_FAMILY_DRAFT")!.id;
});

afterAll(async () => {
  await backend?.close();
});

describe("public endpoints", () => {
  it("GET /api/health reports the version, operator and a working database", async () => {
    const res = await backend.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: "ok",
      version: "3.2.1",
      operator: "ATT",
      database: {
        driver: process.env.TEST_DB === "postgres" ? "postgres" : "pglite",
        ok: true,
        latencyMs: anyNumber(),
      },
    });
  });

  it("GET /api/openapi.json is OpenAPI 3.1 describing lines and plans", async () => {
    const res = await backend.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    }>();
    expect(doc.openapi).toBe("3.1.0");
    for (const path of ["/api/v1/lines", "/api/v1/lines/{id}", "/api/v1/plans", "/api/v1/plans/{id}"]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
    const names = doc.paths["/api/v1/lines"]!.get!.parameters!.map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(
      expect.arrayContaining(["query:page", "query:pageSize", "query:sort", "query:q", "header:x-operator"]),
    );
  });

  it("an unknown API route is a problem 404", async () => {
    expectProblem(await backend.app.inject({ method: "GET", url: "/api/nope" }), 404);
  });
});

describe("authentication", () => {
  for (const resource of ["lines", "plans"]) {
    it(`GET /api/v1/${resource} without a token is 401 problem+json`, async () => {
      expectProblem(await backend.get(`/api/v1/${resource}`), 401);
      expectProblem(await backend.get(`/api/v1/${resource}/${samLineId}`), 401);
    });

    it(`a malformed Authorization header or a garbage token is 401 on ${resource}`, async () => {
      expectProblem(await backend.get(`/api/v1/${resource}`, { token: "garbage" }), 401);
      expectProblem(await backend.get(`/api/v1/${resource}`, { token: "a.b.c" }), 401);
      const res = await backend.app.inject({
        method: "GET",
        url: `/api/v1/${resource}`,
        headers: { authorization: "Basic YWxleDpwdw==", "x-operator": "ATT" },
      });
      expectProblem(res, 401);
    });
  }

  it("an anonymous caller learns nothing from validation: bad input without a token is still 401", async () => {
    const problem = expectProblem(await backend.get("/api/v1/lines?pageSize=1000&foo=1"), 401);
    expect(problem.errors).toBeUndefined();
  });

  it("the real token works (control for the forgeries below)", async () => {
    const token = await backend.tokenFor(ALEX);
    expect((await backend.get("/api/v1/lines", { token })).statusCode).toBe(200);
  });

  it("a token whose claims were edited to role admin is refused", async () => {
    const forged = tamper(await backend.tokenFor(ALEX), (p) => {
      p.role = "admin";
    });
    expectProblem(await backend.get("/api/v1/lines", { token: forged }), 401);
    expectProblem(await backend.get("/api/v1/plans", { token: forged }), 401);
  });

  it("a token whose operator claim was edited is refused", async () => {
    const forged = tamper(await backend.tokenFor(ALEX), (p) => {
      p.operator = "TMO";
    });
    expectProblem(await backend.get("/api/v1/lines", { token: forged, operator: "TMO" }), 401);
  });

  it("an expired token is refused", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = tamper(await backend.tokenFor(ALEX), (p) => {
      p.iat = now - 7200;
      p.auth_time = now - 7200;
      p.exp = now - 3600;
    });
    expectProblem(await backend.get("/api/v1/lines", { token: expired }), 401);
    expectProblem(await backend.get("/api/v1/plans", { token: expired }), 401);
  });

  it("a token for another Firebase project is refused", async () => {
    const token = await backend.tokenFor(ALEX);
    const otherAud = tamper(token, (p) => {
      p.aud = "demo-other-project";
    });
    const otherIss = tamper(token, (p) => {
      p.iss = "https://securetoken.google.com/demo-other-project";
    });
    const both = tamper(token, (p) => {
      p.aud = "demo-other-project";
      p.iss = "https://securetoken.google.com/demo-other-project";
    });
    for (const forged of [otherAud, otherIss, both]) {
      expectProblem(await backend.get("/api/v1/lines", { token: forged }), 401);
      expectProblem(await backend.get("/api/v1/plans", { token: forged }), 401);
    }
  });

  it("a token for a user that does not exist is refused", async () => {
    const ghost = tamper(await backend.tokenFor(ALEX), (p) => {
      p.sub = "no-such-user-0001";
      p.user_id = "no-such-user-0001";
    });
    expectProblem(await backend.get("/api/v1/lines", { token: ghost }), 401);
    expectProblem(await backend.get("/api/v1/plans", { token: ghost }), 401);
  });

  it("a token impersonating another existing user by uid is refused", async () => {
    // Alex's token relabelled as the admin: the claims copied along with it still say subscriber.
    const relabelled = tamper(await backend.tokenFor(ALEX), (p) => {
      p.sub = "demo-admin";
      p.user_id = "demo-admin";
    });
    expectProblem(await backend.get("/api/v1/plans", { token: relabelled }), 401);
  });
});

describe("lines: ownership", () => {
  it("alex lists exactly his two lines", async () => {
    const res = await list<Line>("/api/v1/lines", ALEX);
    expect(res.total).toBe(2);
    expect(msisdns(res.data)).toEqual(["+12025550101", "+12025550102"]);
    expect(res.data.map((l) => l.accountType)).toEqual(["prepaid", "postpaid"]);
  });

  it("sam lists only his line", async () => {
    const res = await list<Line>("/api/v1/lines", SAM);
    expect(res.total).toBe(1);
    expect(msisdns(res.data)).toEqual(["+12025550103"]);
    expect(res.data[0]!.id).toBe(samLineId);
  });

  it("sam may show his own line", async () => {
    const res = await backend.get(`/api/v1/lines/${samLineId}`, { as: SAM });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: samLineId,
      msisdn: "+12025550103",
      accountName: "Sam Chen",
      status: "active",
    });
  });

  it("alex cannot show sam's line: 404, as if it did not exist", async () => {
    const problem = expectProblem(await backend.get(`/api/v1/lines/${samLineId}`, { as: ALEX }), 404);
    expect(problem.detail).not.toContain("0103");
  });

  it("a search does not widen a subscriber's scope", async () => {
    expect((await list<Line>("/api/v1/lines?q=5550103", ALEX)).total).toBe(0);
    expect((await list<Line>(`/api/v1/lines?q=${encodeURIComponent("Sam Chen")}`, ALEX)).total).toBe(0);
  });

  it("a line id that does not exist is 404 for staff too", async () => {
    expectProblem(await backend.get("/api/v1/lines/00000000-0000-4000-8000-000000000000", { as: AGENT }), 404);
  });
});

describe("lines: staff lists", () => {
  it("the admin sees every line of the operator (3 demo + 40 generated); the agent only the verified callers'", async () => {
    const all = await list<Line>("/api/v1/lines", ADMIN);
    expect(all.total).toBe(43);
    expect(all.data).toHaveLength(20);
    // Alex and sam verified themselves to the agent (beforeAll); the generated lines have no holder.
    const agent = await list<Line>("/api/v1/lines", AGENT);
    expect(agent.total).toBe(3);
    expect(msisdns(agent.data)).toEqual(["+12025550101", "+12025550102", "+12025550103"]);
  });

  it("the agent may show a verified caller's line", async () => {
    const res = await backend.get(`/api/v1/lines/${samLineId}`, { as: AGENT });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ msisdn: "+12025550103" });
  });

  it.each(["(202) 555-0103", "5550103", "+1 202-555-0103", "12025550103"])("finds sam's line by q=%j", async (q) => {
    const res = await list<Line>(`/api/v1/lines?q=${encodeURIComponent(q)}`, AGENT);
    expect(res.total).toBe(1);
    expect(res.data[0]!.id).toBe(samLineId);
  });

  it("finds lines by account name", async () => {
    const res = await list<Line>(`/api/v1/lines?q=${encodeURIComponent("alex riv")}`, AGENT);
    expect(msisdns(res.data)).toEqual(["+12025550101", "+12025550102"]);
  });

  it("LIKE wildcards in q are literal", async () => {
    expect((await list<Line>(`/api/v1/lines?q=${encodeURIComponent("%")}`, AGENT)).total).toBe(0);
    expect((await list<Line>(`/api/v1/lines?q=${encodeURIComponent("_")}`, AGENT)).total).toBe(0);
  });

  // The list mechanics on many lines run as the admin, who is not gated by caller verification.
  it("pages 10 at a time without overlap or gaps, in the default msisdn order", async () => {
    const all = await list<Line>("/api/v1/lines?pageSize=100", ADMIN);
    expect(all.data).toHaveLength(43);
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await list<Line>(`/api/v1/lines?pageSize=10&page=${page}`, ADMIN);
      expect(res.total).toBe(43);
      expect(res.data).toHaveLength(page === 5 ? 3 : 10);
      seen.push(...res.data.map((l) => l.id));
    }
    expect(new Set(seen).size).toBe(43);
    expect(seen).toEqual(all.data.map((l) => l.id));
    const sorted = [...msisdns(all.data)].sort();
    expect(msisdns(all.data)).toEqual(sorted);
    const beyond = await list<Line>("/api/v1/lines?pageSize=10&page=6", ADMIN);
    expect(beyond).toEqual({ data: [], total: 43 });
    // The agent's narrowed list pages the same way.
    const agentPage = await list<Line>("/api/v1/lines?pageSize=2&page=2", AGENT);
    expect(agentPage).toMatchObject({ total: 3, data: [expect.objectContaining({ msisdn: "+12025550103" })] });
    expect(agentPage.data).toHaveLength(1);
  });

  it("sort=-msisdn orders by number, descending", async () => {
    const res = await list<Line>("/api/v1/lines?sort=-msisdn&pageSize=100", ADMIN);
    const numbers = msisdns(res.data);
    expect(numbers).toHaveLength(43);
    expect(numbers).toEqual([...numbers].sort().reverse());
    expect(numbers[0]).toBe("+12025550149");
    expect(numbers.at(-1)).toBe("+12025550101");
    const agent = await list<Line>("/api/v1/lines?sort=-msisdn", AGENT);
    expect(msisdns(agent.data)).toEqual(["+12025550103", "+12025550102", "+12025550101"]);
  });

  it("sorting by a joined column works (accountName, then msisdn)", async () => {
    const res = await list<Line>("/api/v1/lines?sort=accountName,msisdn&pageSize=100", AGENT);
    const names = res.data.map((l) => l.accountName);
    for (let i = 1; i < names.length; i++) expect(names[i - 1]!.localeCompare(names[i]!, "en")).toBeLessThanOrEqual(0);
  });

  it("filter[status]=suspended returns only suspended lines", async () => {
    const res = await list<Line>("/api/v1/lines?filter[status]=suspended&pageSize=100", ADMIN);
    expect(res.total).toBe(4); // generated accounts 4, 13, 22, 31
    expect(res.data).toHaveLength(4);
    for (const line of res.data) {
      expect(line.status).toBe("suspended");
      expect(line.suspendReason).toBe("request");
    }
  });

  it("filter[status][in] and filter[status][ne] partition the lines", async () => {
    const inQuery = `/api/v1/lines?${encodeURIComponent("filter[status][in]")}=active,suspended`;
    const some = await list<Line>(inQuery, ADMIN);
    expect(some.total).toBe(43);
    const notActive = await list<Line>("/api/v1/lines?filter[status][ne]=active&pageSize=100", ADMIN);
    expect(notActive.total).toBe(4);
    expect(notActive.data.every((l) => l.status !== "active")).toBe(true);
    // The agent's filter applies within the verified callers' lines (all three active).
    expect(msisdns((await list<Line>(inQuery, AGENT)).data)).toEqual(["+12025550101", "+12025550102", "+12025550103"]);
  });

  it("filters combine with search", async () => {
    const res = await list<Line>(`/api/v1/lines?filter[accountType]=postpaid&q=${encodeURIComponent("alex")}`, AGENT);
    expect(msisdns(res.data)).toEqual(["+12025550102"]);
  });
});

describe("tenancy", () => {
  it("missing X-Operator is 400 naming the header", async () => {
    for (const url of ["/api/v1/lines", "/api/v1/plans", `/api/v1/lines/${samLineId}`]) {
      const problem = expectProblem(await backend.get(url, { as: ALEX, operator: null }), 400);
      expect(problem.errors?.[0]?.path).toBe("X-Operator");
    }
  });

  it("a malformed X-Operator is 400 naming the header", async () => {
    const problem = expectProblem(await backend.get("/api/v1/lines", { as: ALEX, operator: "att" }), 400);
    expect(problem.errors?.[0]?.path).toBe("X-Operator");
  });

  it("alex asking as operator TMO is 403, for lines and plans", async () => {
    for (const url of [
      "/api/v1/lines",
      "/api/v1/plans",
      `/api/v1/lines/${samLineId}`,
      `/api/v1/plans/${draftPlanId}`,
    ]) {
      expectProblem(await backend.get(url, { as: ALEX, operator: "TMO" }), 403);
    }
  });

  it("TMO's subscriber sees only her line and TMO's catalog", async () => {
    const lines = await list<Line>("/api/v1/lines?pageSize=100", TAYLOR, "TMO");
    expect(lines.total).toBe(1);
    expect(msisdns(lines.data)).toEqual(["+13105550199"]);
    expect(lines.data[0]!.id).toBe(tmoLineId);
    const plans = await list<Plan>("/api/v1/plans?pageSize=100", TAYLOR, "TMO");
    expect(plans.data.map((p) => p.code)).toEqual(["TMO_PRE"]);
    expect(plans.total).toBe(1);
  });

  it("TMO's subscriber asking as ATT is 403", async () => {
    expectProblem(await backend.get("/api/v1/lines", { as: TAYLOR, operator: "ATT" }), 403);
  });

  it("TMO's agent sees no ATT line or plan, neither in lists nor by id", async () => {
    // Taylor verified herself to TMO's agent, so her line is the one TMO's agent may list.
    await verifyDemoCallers(backend, ["tmo-taylor"], "tmo-agent", { admin: TMO_ADMIN, operator: "TMO" });
    const lines = await list<Line>("/api/v1/lines?pageSize=100", TMO_AGENT, "TMO");
    expect(msisdns(lines.data)).toEqual(["+13105550199"]);
    expect((await list<Line>("/api/v1/lines?q=5550103", TMO_AGENT, "TMO")).total).toBe(0);
    expectProblem(await backend.get(`/api/v1/lines/${samLineId}`, { as: TMO_AGENT, operator: "TMO" }), 404);

    const plans = await list<Plan>("/api/v1/plans?pageSize=100", TMO_AGENT, "TMO");
    expect(plans.data.map((p) => p.code)).toEqual(["TMO_PRE"]);
    expect((await list<Plan>("/api/v1/plans?filter[code]=PRE_5GB", TMO_AGENT, "TMO")).total).toBe(0);
    for (const id of [attPlanIds[0]!, draftPlanId]) {
      expectProblem(await backend.get(`/api/v1/plans/${id}`, { as: TMO_AGENT, operator: "TMO" }), 404);
    }
  });

  it("ATT's agent and admin never see the TMO line or plan", async () => {
    for (const as of [AGENT, ADMIN]) {
      expectProblem(await backend.get(`/api/v1/lines/${tmoLineId}`, { as }), 404);
      expect(await list<Line>("/api/v1/lines?q=3105550199", as)).toEqual({ data: [], total: 0 });
      expect((await list<Line>(`/api/v1/lines?q=${encodeURIComponent("Taylor Other")}`, as)).total).toBe(0);
      const plans = await list<Plan>("/api/v1/plans?pageSize=100", as);
      expect(plans.data.map((p) => p.code)).not.toContain("TMO_PRE");
    }
    const tmoPlans = await list<Plan>("/api/v1/plans", TAYLOR, "TMO");
    expectProblem(await backend.get(`/api/v1/plans/${tmoPlans.data[0]!.id}`, { as: AGENT }), 404);
  });
});

describe("malformed input is 400 naming the parameter", () => {
  const cases: [string, string][] = [
    ["pageSize=1000", "pageSize"],
    ["pageSize=0", "pageSize"],
    ["page=abc", "page"],
    ["sort=bogus", "sort"],
    ["filter[nope]=1", "filter[nope]"],
    ["filter[status][in]=bogus", "filter[status][in]"],
    ["filter[status][like]=active", "filter[status][like]"],
    ["foo=bar", "foo"],
  ];
  for (const resource of ["lines", "plans"]) {
    it.each(cases)(`GET /api/v1/${resource}?%s → errors[].path %j`, async (query, path) => {
      const problem = expectProblem(await backend.get(`/api/v1/${resource}?${query}`, { as: AGENT }), 400);
      expect(problem.errors?.map((e) => e.path)).toContain(path);
      expect(problem.detail).toContain(path);
    });

    it(`the same parameters URL-encoded are read the same on ${resource}`, async () => {
      const problem = expectProblem(
        await backend.get(`/api/v1/${resource}?${encodeURIComponent("filter[nope]")}=1`, { as: AGENT }),
        400,
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(["filter[nope]"]);
    });

    it(`a repeated filter is 400 on ${resource}`, async () => {
      const problem = expectProblem(
        await backend.get(`/api/v1/${resource}?filter[status]=active&filter[status]=retired`, { as: AGENT }),
        400,
      );
      expect(problem.errors?.map((e) => e.path)).toContain("filter[status]");
    });

    it(`/api/v1/${resource}/not-a-uuid is 400 naming id`, async () => {
      const problem = expectProblem(await backend.get(`/api/v1/${resource}/not-a-uuid`, { as: AGENT }), 400);
      expect(problem.errors?.map((e) => e.path)).toEqual(["id"]);
    });
  }
});

describe("plans", () => {
  it("subscribers never see draft (or retired) plans in the list", async () => {
    for (const as of [ALEX, SAM]) {
      const res = await list<Plan>("/api/v1/plans?pageSize=100", as);
      expect(res.total).toBe(7);
      expect(res.data.map((p) => p.status)).not.toContain("draft");
      expect(res.data.map((p) => p.status)).not.toContain("retired");
      expect(res.data.map((p) => p.code)).not.toContain("POST_FAMILY_DRAFT");
      // Not even when asking for them.
      expect(await list<Plan>("/api/v1/plans?filter[status]=draft", as)).toEqual({ data: [], total: 0 });
      expect((await list<Plan>("/api/v1/plans?q=coming", as)).total).toBe(0);
    }
  });

  it("subscribers get 404 for a draft plan by id", async () => {
    for (const as of [ALEX, SAM]) expectProblem(await backend.get(`/api/v1/plans/${draftPlanId}`, { as }), 404);
  });

  it("the agent and the admin see the draft plan in the list and by id", async () => {
    for (const as of [AGENT, ADMIN]) {
      const res = await list<Plan>("/api/v1/plans?pageSize=100", as);
      expect(res.total).toBe(9);
      expect(res.data.find((p) => p.code === "POST_FAMILY_DRAFT")?.status).toBe("draft");
      const one = await backend.get(`/api/v1/plans/${draftPlanId}`, { as });
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id: draftPlanId, code: "POST_FAMILY_DRAFT", status: "draft" });
    }
  });

  it("a subscriber may show an active plan", async () => {
    const active = (await list<Plan>("/api/v1/plans?filter[code]=PRE_5GB", ALEX)).data[0]!;
    const res = await backend.get(`/api/v1/plans/${active.id}`, { as: ALEX });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(active);
  });

  it("filter[kind]=prepaid returns only prepaid plans (a subscriber: those on sale, never retired ones)", async () => {
    const res = await list<Plan>("/api/v1/plans?filter[kind]=prepaid", ALEX);
    expect(res.total).toBe(3);
    expect(res.data.every((p) => p.kind === "prepaid")).toBe(true);
    expect(res.data.map((p) => p.code).sort()).toEqual(["PRE_15GB", "PRE_5GB", "PRE_UNL"]);
  });

  it("filter[price][between] and [lte] work on minor units", async () => {
    const res = await list<Plan>("/api/v1/plans?filter[price][between]=3000,5000", AGENT);
    expect(res.data.map((p) => p.price.amount)).toEqual([3000, 3500, 4500, 5000]);
    const cheap = await list<Plan>("/api/v1/plans?filter[price][lte]=2500", AGENT);
    expect(cheap.data.map((p) => p.code)).toEqual(["PRE_2GB_LEGACY", "PRE_5GB"]);
  });

  it("sort=price orders by price ascending; -price descending", async () => {
    const asc = (await list<Plan>("/api/v1/plans?sort=price&pageSize=100", AGENT)).data.map((p) => p.price.amount);
    expect(asc).toHaveLength(9);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc[0]).toBe(1500);
    const desc = (await list<Plan>("/api/v1/plans?sort=-price&pageSize=100", AGENT)).data.map((p) => p.price.amount);
    expect(desc).toEqual([...asc].reverse());
  });

  it("the default order is by price", async () => {
    const res = await list<Plan>("/api/v1/plans", ALEX);
    const amounts = res.data.map((p) => p.price.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });

  it("prices are integer minor units with an ISO currency", async () => {
    const res = await list<Plan>("/api/v1/plans?pageSize=100", AGENT);
    for (const plan of res.data) {
      expect(Object.keys(plan.price).sort()).toEqual(["amount", "currency"]);
      expect(Number.isInteger(plan.price.amount)).toBe(true);
      expect(plan.price.currency).toBe("USD");
    }
    expect(res.data.find((p) => p.code === "PRE_15GB")!.price).toEqual({ amount: 3500, currency: "USD" });
  });

  it("paginates plans", async () => {
    const first = await list<Plan>("/api/v1/plans?pageSize=5&page=1", AGENT);
    const second = await list<Plan>("/api/v1/plans?pageSize=5&page=2", AGENT);
    expect([first.total, second.total]).toEqual([9, 9]);
    expect(first.data).toHaveLength(5);
    expect(second.data).toHaveLength(4);
    expect(new Set([...first.data, ...second.data].map((p) => p.id)).size).toBe(9);
  });
});

describe("request ids", () => {
  it("every response carries X-Request-Id", async () => {
    const ok = await backend.get("/api/v1/plans", { as: ALEX });
    const denied = await backend.get("/api/v1/plans");
    const health = await backend.app.inject({ method: "GET", url: "/api/health" });
    for (const res of [ok, denied, health]) expect(res.headers["x-request-id"]).toMatch(/^[\w.-]{1,64}$/);
    expect(ok.headers["x-request-id"]).not.toBe(denied.headers["x-request-id"]);
  });

  it("a given X-Request-Id is echoed, a malformed one replaced", async () => {
    const echoed = await backend.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "trace-abc.123" },
    });
    expect(echoed.headers["x-request-id"]).toBe("trace-abc.123");
    const token = await backend.tokenFor(ALEX);
    const api = await backend.app.inject({
      method: "GET",
      url: "/api/v1/lines",
      headers: { authorization: `Bearer ${token}`, "x-operator": "ATT", "x-request-id": "req-42" },
    });
    expect(api.statusCode).toBe(200);
    expect(api.headers["x-request-id"]).toBe("req-42");
    const bad = await backend.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "no spaces <allowed>" },
    });
    expect(bad.headers["x-request-id"]).not.toBe("no spaces <allowed>");
    expect(bad.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
