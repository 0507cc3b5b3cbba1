import type { FastifyRequest } from "fastify";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { carePinBodySchema, carePinStateSchema } from "#resources/carePin";
import { PROBLEM_TYPES, REAUTH_MAX_AGE_SECONDS } from "#resources/api";
import { carePinState, saveCarePin } from "../domain/carePins/carePins";
import { forbidden } from "../errors";
import { requireRecentSignIn } from "../auth/recentSignIn";
import { words } from "../i18n/words";
import type { EngineServices } from "../engine/services";
import { routeSchema } from "../openapi/routeDoc";
import { apiHeadersSchema } from "./common";

/**
 * The subscriber's own care PIN (issue 27): `GET /me/care-pin` tells whether one is set,
 * `PUT /me/care-pin` sets or changes it. Only the subscriber: staff get 403 (they will check a
 * caller's PIN through verify-caller, never read or set it).
 */
export const carePinRoutes =
  (services: EngineServices): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    const { db, reauthMaxAgeSeconds } = services;

    // Before the body is validated: staff learn nothing about the PIN's rules from this route.
    const subscribersOnly = (request: FastifyRequest): Promise<void> =>
      request.principal.role === "subscriber"
        ? Promise.resolve()
        : Promise.reject(forbidden(words("carePin.subscribersOnly")));

    app.get(
      "/me/care-pin",
      {
        preValidation: subscribersOnly,
        schema: routeSchema(
          {
            operationId: "getCarePin",
            summary: "Whether the caller has a care PIN, and when it was last set; never the PIN",
            description: "Only subscribers (staff get 403).",
            tag: "identity",
          },
          { headers: apiHeadersSchema, response: { 200: carePinStateSchema } },
        ),
      },
      async (request) => carePinState(db, request.principal.operator, request.principal.uid),
    );

    app.put(
      "/me/care-pin",
      {
        preValidation: subscribersOnly,
        schema: routeSchema(
          {
            operationId: "putCarePin",
            summary: "Set or change the caller's care PIN, which customer care asks for when they call",
            description:
              "4 to 8 digits, not one digit repeated nor a run up or down (1111, 1234, 4321: 400 at `pin`). " +
              `Needs a sign-in from the last ${REAUTH_MAX_AGE_SECONDS / 60} minutes (else 403 ${PROBLEM_TYPES.reauthRequired}). ` +
              "Stored hashed; audited without the PIN. Only subscribers (staff get 403).",
            tag: "identity",
          },
          { headers: apiHeadersSchema, body: carePinBodySchema, response: { 200: carePinStateSchema } },
        ),
      },
      async (request) => {
        // After the body's rules, so a person is not asked to sign in again only to be told the PIN is too easy.
        requireRecentSignIn(request.identity.authTime, reauthMaxAgeSeconds, "carePin.reauth");
        const { uid, operator, role } = request.principal;
        return saveCarePin(db, { operator, uid, role, requestId: request.id }, request.body.pin);
      },
    );
    done();
  };
