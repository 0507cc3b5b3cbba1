import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import { smsAllowanceRequestSchema, smsAllowanceResultSchema } from "#resources/identity";
import type { OperatorDirectory } from "../auth/operatorSettings";
import { operatorHeader } from "../auth/requestAuth";
import { forbidden } from "../errors";
import { words } from "../i18n/words";
import type { RateLimiter } from "../lib/rateLimits";
import { routeSchema } from "../openapi/routeDoc";
import { apiHeadersSchema } from "./common";

/**
 * POST /api/auth/sms-allowance: asked by the portal before it has Firebase send a verification code
 * (phone sign-in, MFA enrollment or sign-in, linking). No token: the caller is not signed in yet.
 * Limits SMS per phone number and per client IP (sliding windows counted across instances); a
 * refusal by either counts against neither.
 */
export const smsAllowanceRoutes =
  (operators: OperatorDirectory, limiter: RateLimiter): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.post(
      "/sms-allowance",
      {
        schema: routeSchema(
          {
            operationId: "requestSmsAllowance",
            summary: "May a verification SMS be sent to this number now? 429 with Retry-After when over the limits",
            tag: "identity",
            problems: [403, 429],
          },
          {
            security: [],
            headers: apiHeadersSchema,
            body: smsAllowanceRequestSchema,
            response: { 200: smsAllowanceResultSchema },
          },
        ),
      },
      async (request) => {
        const operator = operatorHeader(request);
        if ((await operators.settings(operator)) === null) throw forbidden(words("auth.noSuchOperator", { operator }));
        const { phoneNumber } = request.body;
        await limiter.enforce([
          {
            limit: "smsPerNumber",
            key: phoneNumber,
            detail: words("routes.sms.perNumber"),
          },
          {
            limit: "smsPerIp",
            key: request.ip,
            detail: words("routes.sms.perNetwork"),
          },
        ]);
        return { allowed: true as const };
      },
    );
    done();
  };
