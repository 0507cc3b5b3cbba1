import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { accountMetersSchema } from "#resources/usage";
import { accountsResource } from "#resources/accounts";
import { notFound } from "../errors";
import { words } from "../i18n/words";
import { findRecordRow } from "../engine/records";
import type { EngineServices } from "../engine/services";
import { accountsModule } from "../domain/accounts/module";
import { accountMetersOf } from "../domain/usage/accountMeters";
import { apiHeadersSchema, errorResponses, idParamsSchema } from "./common";

/**
 * GET /accounts/{id}/meters (issue 28): the shared data pool and each line's part, for anyone who may
 * open the account (its holder; agents with the caller verified; admins). 404 otherwise.
 */
export const accountMetersRoutes =
  (services: Pick<EngineServices, "reader">): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.get(
      "/accounts/:id/meters",
      {
        schema: {
          tags: ["accounts"],
          operationId: "getAccountMeters",
          summary: "The account's shared data pool in its current cycle and each line's data (MB)",
          description:
            "`pool` is null when no line of the account is on a shared plan; `allowance` and `left` null mean unlimited. Each line: data used this cycle, its monthly limit (`cap`, null = none) and whether its data is stopped (`capped`). 404 when the account is not yours.",
          headers: apiHeadersSchema,
          params: idParamsSchema,
          response: { 200: accountMetersSchema, ...errorResponses },
        },
      },
      async (request) => {
        // Derived reads that may lag a little: a hot standby answers them when there is one.
        const db = services.reader(request.principal);
        const row = await findRecordRow(
          db,
          accountsResource,
          accountsModule,
          request.principal,
          "show",
          request.params.id,
        );
        if (!row) throw notFound(words("sharedPool.noSuchAccount"));
        return accountMetersOf(db, request.params.id);
      },
    );
    done();
  };
