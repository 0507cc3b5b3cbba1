import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOns, lines, plans } from "../../server/db/schema";
import { signInWithPassword, startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";
import { verifyDemoCallers } from "../support/callerVerification";
import { expectProblem } from "../support/problems";

// Issue 25: the refusals of plans, add-ons, lines, care's subscriber pages and voucher batches are
// words, answered in the request's language (Accept-Language) and, in English, as they always read.
let backend: TestBackend;
const planId: Record<string, string> = {};
const addOnId: Record<string, string> = {};
let alexPrepaid: string;

type Language = "en" | "es";
const usd = (amount: number) => ({ amount, currency: "USD" });

async function send(language: Language, method: "GET" | "POST", url: string, as: string, body?: unknown) {
  return backend.send(method, url, {
    token: await signInWithPassword(as),
    ...(body !== undefined && { body }),
    headers: { "accept-language": language },
  });
}

/** The same request in both languages: each answer's problem, checked for its status (and field). */
async function inBoth(
  status: number,
  field: string | undefined,
  method: "GET" | "POST",
  url: string,
  as: string,
  body?: unknown,
) {
  const en = expectProblem(await send("en", method, url, as, body), status, field);
  const es = expectProblem(await send("es", method, url, as, body), status, field);
  return { en, es };
}

const messageAt = (problem: { errors?: { path: string; message: string }[] }, path: string) =>
  problem.errors?.find((e) => e.path === path)?.message;

beforeAll(async () => {
  backend = await startTestBackend();
  // The agent reads the demo subscribers' records once each caller is verified (issue 27).
  await verifyDemoCallers(backend);
  for (const row of await backend.database.db.select().from(plans)) planId[row.code] = row.id;
  for (const row of await backend.database.db.select().from(addOns)) addOnId[row.code] = row.id;
  const [line] = await backend.database.db.select({ id: lines.id }).from(lines).where(eq(lines.msisdn, "+12025550101"));
  alexPrepaid = line!.id;
});

afterAll(async () => {
  await backend?.close();
});

describe("refusals in the reader's language", () => {
  it("a plan change: to the other kind of account, and to a retired plan named as the catalog names it in Spanish", async () => {
    const url = `/api/v1/lines/${alexPrepaid}/actions/change-plan`;
    const kind = await inBoth(422, "planId", "POST", url, ALEX, { planId: planId.POST_10GB, effective: "now" });
    expect(kind.en.detail).toBe(
      "Moving from prepaid to postpaid cannot be done here: a care agent can do it for you (call us or visit a store).",
    );
    expect(messageAt(kind.en, "planId")).toBe("a postpaid plan; this line is prepaid");
    expect(kind.es).toMatchObject({
      title: "No se puede procesar",
      detail:
        "El cambio de prepago a pospago no se puede hacer aquí: un agente de atención puede hacerlo por ti (llámanos o visita una tienda).",
    });
    expect(messageAt(kind.es, "planId")).toBe("un plan pospago; esta línea es prepago");

    const retired = await inBoth(422, "planId", "POST", url, ALEX, {
      planId: planId.PRE_2GB_LEGACY,
      effective: "now",
    });
    expect(retired.en.detail).toBe("Prepaid 2 GB (legacy) is not offered any more.");
    expect(retired.es.detail).toBe("Prepago 2 GB (antiguo) ya no se ofrece.");
    expect(messageAt(retired.es, "planId")).toBe("no es un plan activo");
  });

  it("an add-on no longer on sale, named in Spanish", async () => {
    const url = `/api/v1/lines/${alexPrepaid}/actions/buy-add-on`;
    const retired = await inBoth(422, "addOnId", "POST", url, ALEX, { addOnId: addOnId.ROAM_WORLD_OLD });
    expect(retired.en.detail).toBe("World pass (old) is not on sale.");
    expect(retired.es.detail).toBe("Pase Mundo (antiguo) no está a la venta.");
    expect(messageAt(retired.es, "addOnId")).toBe("no es un complemento activo");
  });

  it("a locked number refuses a port-out PIN, the action worded in the sentence's language", async () => {
    await backend.database.db.update(lines).set({ numberLocked: true }).where(eq(lines.id, alexPrepaid));
    try {
      const url = `/api/v1/lines/${alexPrepaid}/actions/port-out-pin`;
      const locked = await inBoth(409, "numberLocked", "POST", url, ALEX);
      expect(locked.en.detail).toBe(
        "The number is locked against transfers, so a port-out PIN is refused; unlock it first.",
      );
      expect(locked.es.detail).toBe(
        "El número está bloqueado contra transferencias, por eso se rechaza el PIN de portabilidad; desbloquéalo primero.",
      );
      expect(messageAt(locked.es, "numberLocked")).toBe("el número está bloqueado");
    } finally {
      await backend.database.db.update(lines).set({ numberLocked: false }).where(eq(lines.id, alexPrepaid));
    }
  });

  it("a line suspended for not renewing its plan tells its holder how to restore it", async () => {
    const suspended = { status: "suspended" as const, suspendReason: "non_payment" as const };
    await backend.database.db.update(lines).set(suspended).where(eq(lines.id, alexPrepaid));
    try {
      const url = `/api/v1/lines/${alexPrepaid}/actions/restore`;
      const unpaid = await inBoth(422, "suspendReason", "POST", url, ALEX, {});
      expect(unpaid.en.detail).toBe(
        "This line was suspended because its plan was not renewed: a top-up that covers the plan renews it and restores the line.",
      );
      expect(messageAt(unpaid.en, "suspendReason")).toBe("non_payment");
      expect(unpaid.es.detail).toBe(
        "Esta línea se suspendió porque su plan no se renovó: una recarga que cubra el plan lo renueva y restablece la línea.",
      );
      expect(messageAt(unpaid.es, "suspendReason")).toBe("suspendida por falta de pago");
    } finally {
      await backend.database.db
        .update(lines)
        .set({ status: "active", suspendReason: null })
        .where(eq(lines.id, alexPrepaid));
    }
  });

  it("the catalog's currency and a code in use, for an admin adding a plan", async () => {
    const plan = (code: string, currency: string) => ({
      code,
      name: "Test plan",
      kind: "prepaid",
      price: { amount: 1000, currency },
      dataMb: null,
      voiceMinutes: null,
      sms: null,
      features: [],
    });
    const currency = await inBoth(400, "price.currency", "POST", "/api/v1/plans", ADMIN, plan("PLAN_EUR", "EUR"));
    expect(currency.en.detail).toBe("The catalog is priced in USD.");
    expect(currency.es.detail).toBe("Los precios del catálogo están en USD.");
    expect(messageAt(currency.es, "price.currency")).toBe("debe ser USD");

    const taken = await inBoth(409, "code", "POST", "/api/v1/plans", ADMIN, plan("PRE_15GB", "USD"));
    expect(taken.en.detail).toBe("A plan with this code exists.");
    expect(taken.es.detail).toBe("Ya existe un plan con este código.");
    expect(messageAt(taken.es, "code")).toBe("ya está en uso");
  });

  it("care's search box and a subscriber that does not exist", async () => {
    const search = await inBoth(400, "q", "GET", "/api/v1/subscribers?q=x", AGENT);
    expect(search.en.detail).toBe("The search is not valid: at least 2 characters.");
    expect(search.es.detail).toBe("La búsqueda no es válida: al menos 2 caracteres.");
    expect(messageAt(search.es, "q")).toBe("al menos 2 caracteres");

    const missing = await inBoth(404, undefined, "GET", `/api/v1/subscribers/${randomUUID()}/identity`, AGENT);
    expect(missing.en.detail).toBe("No such subscriber.");
    expect(missing.es).toMatchObject({ title: "No encontrado", detail: "No existe ese abonado." });
  });

  it("vouchers in another currency than the operator's", async () => {
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    const batch = await inBoth(422, "value.currency", "POST", "/api/v1/voucher-batches", ADMIN, {
      count: 1,
      value: { ...usd(1000), currency: "EUR" },
      expiresOn: inAYear,
    });
    expect(batch.en.detail).toBe("Vouchers are in USD.");
    expect(batch.es.detail).toBe("Los cupones son en USD.");
    expect(messageAt(batch.es, "value.currency")).toBe("debe ser USD");
  });
});
