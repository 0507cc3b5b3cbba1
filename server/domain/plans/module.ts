import { and, eq } from "drizzle-orm";
import { badRequest, conflict, type FieldError } from "../../errors";
import { words } from "../../i18n/words";
import { catalogCurrency, requireCatalogCurrency } from "../catalogPrice";
import type { Overage } from "#resources/overage";
import type { CatalogTranslations } from "#resources/catalogTranslations";
import { plans } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import type { PlanRow } from "./priceChange";
import { planRecords } from "./records";
import { planPriceRoutes } from "./routes";

/** Every price of an overage must be in the catalog's currency: 400 naming each one that is not. */
function checkOverageCurrency(overage: Overage | null | undefined, currency: string) {
  if (!overage) return;
  const errors: FieldError[] = [];
  const check = (
    rates: Partial<Record<"data" | "voice" | "sms", { price: { currency: string } } | null>>,
    prefix: string,
  ) => {
    for (const type of ["data", "voice", "sms"] as const) {
      const rate = rates[type];
      if (rate && rate.price.currency !== currency)
        errors.push({
          path: `${prefix}${type}.price.currency`,
          message: words("catalog.mustBeCurrency", { currency }),
        });
    }
  };
  check(overage, "overage.");
  for (const [zone, rates] of Object.entries(overage.roaming ?? {}))
    if (rates) check(rates, `overage.roaming.${zone}.`);
  if (errors.length) throw badRequest(words("catalog.pricedIn", { currency }), errors);
}

/** The operator's catalog: open to every signed-in role; subscribers see only what is on sale (not drafts, not retired plans). */
export const plansModule: DomainModule<PlanRow> = {
  ...planRecords,
  /** GET /plans/{id}/price-change-preview (./routes.ts): the change-price quote as a read. */
  extraRoutes: (services) => planPriceRoutes(services),
  writer: {
    // Admins add plans as drafts (activate puts them on sale); the price moves only through change-price.
    async create(ctx, body) {
      const price = body.price as { amount: number; currency: string };
      const currency = await catalogCurrency(ctx.tx, ctx.principal.operator);
      requireCatalogCurrency(price, currency);
      const [taken] = await ctx.tx
        .select({ id: plans.id })
        .from(plans)
        .where(and(eq(plans.operatorCode, ctx.principal.operator), eq(plans.code, String(body.code))));
      if (taken) throw conflict(words("plans.codeTaken"), [{ path: "code", message: words("plans.codeUsed") }]);
      checkOverageCurrency(body.overage as Overage | null | undefined, currency);
      const [row] = await ctx.tx
        .insert(plans)
        .values({
          operatorCode: ctx.principal.operator,
          code: String(body.code),
          name: String(body.name),
          kind: body.kind as PlanRow["kind"],
          status: "draft",
          priceAmount: price.amount,
          currency: price.currency,
          dataMb: (body.dataMb ?? null) as number | null,
          voiceMinutes: (body.voiceMinutes ?? null) as number | null,
          sms: (body.sms ?? null) as number | null,
          features: (body.features ?? []) as string[],
          overage: body.overage ?? null,
          sharing: (body.sharing ?? "none") as PlanRow["sharing"],
          translations: (body.translations ?? {}) as CatalogTranslations,
        })
        .returning({ id: plans.id });
      return row!.id;
    },
    async edit(ctx, row, body) {
      if (body.overage) checkOverageCurrency(body.overage, row.currency);
      await ctx.tx
        .update(plans)
        .set({
          ...(body.name !== undefined ? { name: body.name as string } : {}),
          ...(body.dataMb !== undefined ? { dataMb: body.dataMb as number | null } : {}),
          ...(body.voiceMinutes !== undefined ? { voiceMinutes: body.voiceMinutes as number | null } : {}),
          ...(body.sms !== undefined ? { sms: body.sms as number | null } : {}),
          ...(body.features !== undefined ? { features: body.features as string[] } : {}),
          ...(body.overage !== undefined ? { overage: body.overage } : {}),
          ...(body.sharing !== undefined ? { sharing: body.sharing as PlanRow["sharing"] } : {}),
          ...(body.translations !== undefined ? { translations: body.translations as CatalogTranslations } : {}),
          updatedAt: new Date(),
        })
        .where(eq(plans.id, row.id));
    },
  },
};
