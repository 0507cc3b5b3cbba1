import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Principal } from "#resources/access";
import {
  areaCodeSchema,
  availableNumberSchema,
  numberReservationSchema,
  usMsisdnSchema,
} from "#resources/numberInventory";
import { recordAudit } from "../../audit";
import { conflict, forbidden } from "../../errors";
import { words } from "../../i18n/words";
import { apiHeadersSchema } from "../../routes/common";
import { routeSchema } from "../../openapi/routeDoc";
import type { EngineServices } from "../../engine/services";
import { freeNumbers, reserveNumber } from "./inventory";

/** How many free numbers one lookup offers (a person picks one; more is noise). */
const OFFERED = 20;

/** Subscribers and staff of the operator look numbers up; anyone else (no role) may not. */
function mayPick(principal: Principal) {
  if (!["subscriber", "agent", "admin"].includes(principal.role))
    throw forbidden(words("numbers.roleMayNot", { role: principal.role }));
}

/**
 * The operator's number inventory (issue 28): GET /number-inventory?areaCode=202 answers its free
 * numbers (409 when the area code has none, 400 at areaCode for a malformed one), and
 * POST /number-inventory/{msisdn}/actions/reserve holds one for the caller for 15 minutes, so that
 * add-line or change-number can take it (409 when someone else holds it or it rests in quarantine).
 * Only the caller's operator's numbers, always (another operator's number is not ours: 409 not ours).
 */
export const numberInventoryRoutes =
  (services: EngineServices): FastifyPluginAsyncZod =>
  (app) => {
    const { db } = services;

    app.get(
      "/number-inventory",
      {
        schema: routeSchema(
          {
            operationId: "listFreeNumbers",
            summary: "Free numbers of an area code",
            description: `At most ${OFFERED}, lowest first, the numbers the caller holds among them. 409 when the area code has no free number; 400 at areaCode when it is not 3 digits starting 2-9.`,
            tag: "number-inventory",
            problems: [409],
          },
          {
            headers: apiHeadersSchema,
            querystring: z.object({ areaCode: areaCodeSchema }).strict(),
            response: { 200: z.object({ data: z.array(availableNumberSchema), total: z.number().int() }) },
          },
        ),
      },
      async (request) => {
        mayPick(request.principal);
        const { areaCode } = request.query;
        const data = await freeNumbers(db, request.principal.operator, areaCode, OFFERED, request.principal.uid);
        if (data.length === 0)
          throw conflict(words("numbers.noneFree", { areaCode }), [
            { path: "areaCode", message: words("numbers.noneFreeField") },
          ]);
        return { data, total: data.length };
      },
    );

    app.post(
      "/number-inventory/:msisdn/actions/reserve",
      {
        schema: routeSchema(
          {
            operationId: "reserveNumber",
            summary: "Hold a free number for 15 minutes",
            description:
              "The caller's reservation, again from now when they already hold it. 409 when another person holds it, it is in use or in quarantine, or it is not one of the operator's numbers.",
            tag: "number-inventory",
            problems: [409],
          },
          {
            headers: apiHeadersSchema,
            params: z.object({ msisdn: usMsisdnSchema }),
            response: { 200: numberReservationSchema },
          },
        ),
      },
      async (request) => {
        const principal = request.principal;
        mayPick(principal);
        const reservation = await db.transaction(async (tx) => {
          const held = await reserveNumber(tx, principal.operator, request.params.msisdn, principal.uid);
          await recordAudit(tx, {
            operator: principal.operator,
            actorUid: principal.uid,
            actorRole: principal.role,
            action: "numberInventory.reserve",
            targetType: "number-inventory",
            targetId: held.msisdn,
            after: { reservedUntil: held.reservedUntil.toISOString() },
            requestId: request.id,
          });
          return held;
        });
        return { ...reservation, reservedUntil: reservation.reservedUntil.toISOString() };
      },
    );
    return Promise.resolve();
  };
