import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "../../server/db/schema";
import type { AddOn, LineAddOn } from "../../src/resources/addOns";
import type { Line } from "../../src/resources/lines";
import type { Plan } from "../../src/resources/plans";
import type { Home } from "../../src/resources/usage";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, ALEX, SAM, TMO_ADMIN } from "../support/fixtures";
import { expectProblem } from "../support/problems";

// Catalog content in English and Spanish (issue 25, item 3): `name`/`features` stay the operator's
// default text, `translations.es` holds the Spanish; admins write both, subscribers read both, and
// bad input is a 400 at its path that changes nothing. On TEST_DB (PGlite or PostgreSQL).
let backend: TestBackend;

const usd = (amount: number) => ({ amount, currency: "USD" });
const newPlan = (translations?: unknown) => ({
  code: `PLAN_${randomUUID().slice(0, 8).toUpperCase()}`,
  name: "Prepaid Test 8 GB",
  kind: "prepaid",
  price: usd(3000),
  dataMb: 8192,
  voiceMinutes: null,
  sms: null,
  features: ["Unlimited talk & text", "Mobile hotspot"],
  ...(translations !== undefined ? { translations } : {}),
});
const planById = async (id: string, as = ADMIN) => (await backend.get(`/api/v1/plans/${id}`, { as })).json<Plan>();
const planIdOf = async (code: string) =>
  (await backend.database.db.select({ id: plans.id }).from(plans).where(eq(plans.code, code)))[0]!.id;

beforeAll(async () => {
  backend = await startTestBackend();
});

afterAll(async () => {
  await backend?.close();
});

describe("plans in Spanish", () => {
  it("an admin creates a plan with its Spanish name and features, edits them, and a subscriber reads both languages", async () => {
    const spanish = { es: { name: "Prepago Prueba 8 GB", features: ["Llamadas y mensajes ilimitados"] } };
    const created = await backend.send("POST", "/api/v1/plans", { as: ADMIN, body: newPlan(spanish) });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Plan>().id;
    expect(await planById(id)).toMatchObject({ name: "Prepaid Test 8 GB", translations: spanish });

    const edited = await backend.send("PATCH", `/api/v1/plans/${id}`, {
      as: ADMIN,
      body: { translations: { es: { name: "Prepago Prueba 8 GB+", features: ["Punto de acceso móvil"] } } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: "Prepaid Test 8 GB",
      features: ["Unlimited talk & text", "Mobile hotspot"],
      translations: { es: { name: "Prepago Prueba 8 GB+", features: ["Punto de acceso móvil"] } },
    });

    expect((await backend.send("POST", `/api/v1/plans/${id}/actions/activate`, { as: ADMIN })).statusCode).toBe(200);
    const seen = await planById(id, SAM);
    expect(seen.translations.es?.name).toBe("Prepago Prueba 8 GB+");
  });

  it("a plan created without translations has none, and the seeded catalog has its Spanish", async () => {
    const created = await backend.send("POST", "/api/v1/plans", { as: ADMIN, body: newPlan() });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<Plan>().translations).toEqual({});
    const seeded = await planById(await planIdOf("PRE_15GB"), ALEX);
    expect(seeded.translations).toEqual({
      es: { name: "Prepago 15 GB", features: ["Llamadas y mensajes ilimitados", "Punto de acceso móvil"] },
    });
  });

  it("refuses a too-long Spanish name, an unknown language and an unknown field with a 400 at its path; nothing changes", async () => {
    const id = await planIdOf("PRE_5GB");
    const before = await planById(id);
    const patch = (translations: unknown) =>
      backend.send("PATCH", `/api/v1/plans/${id}`, { as: ADMIN, body: { translations } });
    expectProblem(await patch({ es: { name: "x".repeat(81) } }), 400, "translations.es.name");
    expectProblem(await patch({ es: { features: ["x".repeat(81)] } }), 400, "translations.es.features.0");
    expectProblem(await patch({ fr: { name: "Prépayé 5 Go" } }), 400, "translations");
    expectProblem(await patch({ es: { nombre: "Prepago" } }), 400, "translations.es");
    expectProblem(
      await backend.send("POST", "/api/v1/plans", { as: ADMIN, body: newPlan({ es: { name: "x".repeat(81) } }) }),
      400,
      "translations.es.name",
    );
    expect(await planById(id)).toEqual(before);
  });

  it("another operator's admin cannot touch ATT's translations, and ATT's edits leave TMO's plan alone", async () => {
    const id = await planIdOf("PRE_UNL");
    const before = await planById(id);
    const body = { translations: { es: { name: "Robado" } } };
    expectProblem(await backend.send("PATCH", `/api/v1/plans/${id}`, { as: TMO_ADMIN, operator: "TMO", body }), 404);
    expectProblem(await backend.send("PATCH", `/api/v1/plans/${id}`, { as: SAM, body }), 403);
    expect(await planById(id)).toEqual(before);
    const tmo = (
      await backend.get(`/api/v1/plans/${await planIdOf("TMO_PRE")}`, { as: TMO_ADMIN, operator: "TMO" })
    ).json<Plan>();
    expect(tmo.translations).toEqual({});
  });
});

describe("add-ons and lines in Spanish", () => {
  it("an admin writes an add-on's Spanish name; a feature list for an add-on is refused at its path", async () => {
    const created = await backend.send("POST", "/api/v1/add-ons", {
      as: ADMIN,
      body: {
        code: `ADD_${randomUUID().slice(0, 8).toUpperCase()}`,
        name: "2 GB data pass",
        kind: "data",
        roamingZone: null,
        price: usd(1200),
        dataMb: 2048,
        validityDays: 30,
        translations: { es: { name: "Pase de 2 GB" } },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<AddOn>().id;
    expect(created.json<AddOn>().translations).toEqual({ es: { name: "Pase de 2 GB" } });
    expectProblem(
      await backend.send("PATCH", `/api/v1/add-ons/${id}`, {
        as: ADMIN,
        body: { translations: { es: { features: ["Datos"] } } },
      }),
      400,
      "translations.es",
    );
    const edited = await backend.send("PATCH", `/api/v1/add-ons/${id}`, {
      as: ADMIN,
      body: { translations: { es: { name: "Pase de datos de 2 GB" } } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<AddOn>().translations.es?.name).toBe("Pase de datos de 2 GB");
  });

  it("a subscriber's home, line and line add-ons carry the plan's and add-ons' Spanish names", async () => {
    const addOns = (await backend.get("/api/v1/add-ons?pageSize=100", { as: ALEX })).json<{ data: AddOn[] }>();
    expect(addOns.data.find((a) => a.code === "DATA_1GB")?.translations).toEqual({ es: { name: "Pase de 1 GB" } });
    const home = (await backend.get("/api/v1/home", { as: ALEX })).json<Home>();
    const prepaid = home.lines.find((l) => l.plan.name === "Prepaid 15 GB")!;
    expect(prepaid.plan.translations.es?.name).toBe("Prepago 15 GB");
    const line = (await backend.get(`/api/v1/lines/${prepaid.id}`, { as: ALEX })).json<Line>();
    expect(line.planTranslations.es?.name).toBe("Prepago 15 GB");
    const active = await backend.get(`/api/v1/lines/${prepaid.id}/add-ons`, { as: ALEX });
    expect(active.statusCode, active.body).toBe(200);
    for (const purchase of active.json<LineAddOn[]>()) expect(purchase.translations).toBeDefined();
  });
});
