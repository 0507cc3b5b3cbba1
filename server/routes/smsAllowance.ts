import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { smsAllowanceRequestSchema, smsAllowanceResultSchema } from "../../src/resources/identity";
import type { OperatorDirectory } from "../auth/operatorSettings";
import { operatorHeader } from "../auth/requestAuth";
import { forbidden, tooManyRequests } from "../errors";
import type { Limiters } from "../lib/rateLimits";
import { apiHeadersSchema, problemSchema } from "./common";

/**
 * POST /api/auth/sms-allowance: asked by the portal before it has Firebase send a verification code
 * (phone sign-in, MFA enrollment or sign-in, linking). No token: the caller is not signed in yet.
 * Limits SMS per phone number and per client IP (sliding windows); refusals are not counted.
 */
export const smsAllowanceRoutes = (operators: OperatorDirectory, limiters: Limiters): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      "/sms-allowance",
      {
        schema: {
          tags: ["identity"],
          summary: "May a verification SMS be sent to this number now? 429 with Retry-After when over the limits",
          security: [],
          headers: apiHeadersSchema,
          body: smsAllowanceRequestSchema,
          response: { 200: smsAllowanceResultSchema, 400: problemSchema, 403: problemSchema, 429: problemSchema },
        },
      },
      async (request) => {
        const operator = operatorHeader(request);
        if ((await operators.settings(operator)) === null) throw forbidden(`There is no operator ${operator}.`);
        const { phoneNumber } = request.body;
        const perNumber = limiters.smsPerNumber.check(phoneNumber);
        const perIp = limiters.smsPerIp.check(request.ip);
        if (!perNumber.allowed || !perIp.allowed) {
          const wait = Math.max(perNumber.allowed ? 0 : perNumber.retryAfterMs, perIp.allowed ? 0 : perIp.retryAfterMs);
          throw tooManyRequests(
            perNumber.allowed ? "Too many verification codes from this network; try again later." : "Too many verification codes for this number; try again later.",
            wait,
          );
        }
        limiters.smsPerNumber.hit(phoneNumber);
        limiters.smsPerIp.hit(request.ip);
        return { allowed: true as const };
      },
    );
  };
