import { and, eq, ilike, or } from "drizzle-orm";
import type { AddOn } from "#resources/addOns";
import type { CatalogTranslations } from "#resources/catalogTranslations";
import { addOns } from "../../db/schema";
import { badRequest, conflict } from "../../errors";
import { words } from "../../i18n/words";
import { catalogCurrency, requireCatalogCurrency } from "../catalogPrice";
import { escapeLike } from "../../lib/sql";
import type { ActionHandler, DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";
import { lineAddOnRoutes } from "./routes";

export type AddOnRow = typeof addOns.$inferSelect;

export const toAddOn = (row: AddOnRow): AddOn => ({
  id: row.id,
  code: row.code,
  name: row.name,
  kind: row.kind,
  roamingZone: row.roamingZone,
  status: row.status,
  price: { amount: row.priceAmount, currency: row.currency },
  dataMb: row.dataMb,
  validityDays: row.validityDays,
  translations: row.translations,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

type Money = { amount: number; currency: string };

/** The add-on catalog: every signed-in role reads it, subscribers only what is on sale; admins write it (new ones start as drafts). */
export const addOnsModule: DomainModule<AddOnRow> = {
  source: tableSource({
    table: addOns,
    forSubscribers: eq(addOns.status, "active"),
    columns: {
      name: addOns.name,
      code: addOns.code,
      kind: addOns.kind,
      roamingZone: addOns.roamingZone,
      status: addOns.status,
      price: addOns.priceAmount,
      dataMb: addOns.dataMb,
      validityDays: addOns.validityDays,
      createdAt: addOns.createdAt,
    },
    search: (q) => or(ilike(addOns.name, `%${escapeLike(q)}%`), ilike(addOns.code, `%${escapeLike(q)}%`)),
    toRecord: toAddOn,
  }),
  /** GET /lines/{id}/add-ons (server/domain/addOns/routes.ts): what a line has bought and counts now. */
  extraRoutes: lineAddOnRoutes,
  writer: {
    async create(ctx, body) {
      const price = body.price as Money;
      const currency = await catalogCurrency(ctx.tx, ctx.principal.operator);
      requireCatalogCurrency(price, currency);
      const kind = body.kind as AddOnRow["kind"];
      const roamingZone = (body.roamingZone ?? null) as AddOnRow["roamingZone"];
      if ((kind === "roaming") !== (roamingZone !== null)) {
        throw badRequest(words("addOns.zone"), [
          {
            path: "roamingZone",
            message: words(kind === "roaming" ? "addOns.zoneRequired" : "addOns.zoneOnlyRoaming"),
          },
        ]);
      }
      const [taken] = await ctx.tx
        .select({ id: addOns.id })
        .from(addOns)
        .where(and(eq(addOns.operatorCode, ctx.principal.operator), eq(addOns.code, String(body.code))));
      if (taken) throw conflict(words("addOns.codeTaken"), [{ path: "code", message: words("addOns.codeUsed") }]);
      const [row] = await ctx.tx
        .insert(addOns)
        .values({
          operatorCode: ctx.principal.operator,
          code: String(body.code),
          name: String(body.name),
          kind,
          roamingZone,
          status: "draft",
          priceAmount: price.amount,
          currency: price.currency,
          dataMb: Number(body.dataMb),
          validityDays: Number(body.validityDays),
          translations: (body.translations ?? {}) as CatalogTranslations,
        })
        .returning({ id: addOns.id });
      return row!.id;
    },
    async edit(ctx, row, body) {
      const price = body.price as Money | undefined;
      requireCatalogCurrency(price, row.currency);
      await ctx.tx
        .update(addOns)
        .set({
          ...(body.name !== undefined ? { name: body.name as string } : {}),
          ...(price ? { priceAmount: price.amount } : {}),
          ...(body.dataMb !== undefined ? { dataMb: Number(body.dataMb) } : {}),
          ...(body.validityDays !== undefined ? { validityDays: Number(body.validityDays) } : {}),
          ...(body.translations !== undefined ? { translations: body.translations as CatalogTranslations } : {}),
          updatedAt: new Date(),
        })
        .where(eq(addOns.id, row.id));
    },
  },
};

const setStatus = (status: "active" | "retired"): ActionHandler<AddOnRow> => ({
  async run(ctx) {
    await ctx.tx.update(addOns).set({ status, updatedAt: new Date() }).where(eq(addOns.id, ctx.row.id));
  },
});

/** add-ons/{id}/actions/activate (draft → active) and retire (active → retired); the declaration's `when` guards the state. */
export const activateAddOn = setStatus("active");
export const retireAddOn = setStatus("retired");
