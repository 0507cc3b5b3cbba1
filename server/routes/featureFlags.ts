import { z } from "zod";
import type { FastifyPluginCallbackZod } from "fastify-type-provider-zod";
import type { FeatureFlagSource } from "../lib/featureFlags";
import { apiHeadersSchema, errorResponses } from "./common";

const featureFlagsSchema = z.object({
  flags: z.object({ outage_banner: z.string(), card_top_up_enabled: z.boolean(), esim_transfer_enabled: z.boolean() }),
  source: z
    .enum(["repo-template", "remote"])
    .describe(
      "remote: the project's live template; repo-template: remoteconfig.template.json over the in-code defaults",
    ),
});

/** The feature flags as the backend applies them (the same Remote Config names and defaults as the portal). */
export const featureFlagRoutes =
  (flags: FeatureFlagSource): FastifyPluginCallbackZod =>
  (app, _options, done) => {
    app.get(
      "/feature-flags",
      {
        schema: {
          tags: ["configuration"],
          summary: "Feature flags from Remote Config (outage banner, card top-up, eSIM transfer)",
          headers: apiHeadersSchema,
          response: { 200: featureFlagsSchema, ...errorResponses },
        },
      },
      () => ({ flags: flags.current(), source: flags.source() }),
    );
    done();
  };
