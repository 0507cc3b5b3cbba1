import { randomUUID } from "node:crypto";
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import pino from "pino";
import cors from "@fastify/cors";
import swagger from "@fastify/swagger";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { REAUTH_MAX_AGE_SECONDS } from "#resources/api";
import type { Locale } from "#i18n/dictionaries";
import { words } from "./i18n/words";
import { validationText } from "./i18n/validationText";
import { RequestInvalid, validatorCompiler } from "./lib/requestValidation";
import { fastifyErrorText } from "./lib/fastifyErrorText";
import { notValid } from "./lib/listedText";
import type { Database } from "./db/client";
import type { ReadRouter } from "./db/readReplicas";
import { ProblemError, sendClientErrorProblem, sendProblem } from "./errors";
import { isTransientConflict } from "./db/pgErrors";
import type { Auth } from "firebase-admin/auth";
import type { TokenVerifier } from "./auth/tokenVerifier";
import { authenticateRequest, operatorHeader } from "./auth/requestAuth";
import { createOperatorDirectory, OPERATOR_SETTINGS_TTL_MS } from "./auth/operatorSettings";
import { createAccessInvalidation } from "./auth/accessInvalidation";
import { createRateLimiter, type RateLimits } from "./lib/rateLimits";
import { fastifyTrustProxy, type TrustedProxies } from "./lib/trustProxy";
import { rejectUnstorableText } from "./lib/storableText";
import { serializerCompiler } from "./lib/responseSerializer";
import { loggedUrl } from "./lib/loggedUrl";
import { loggedError } from "./lib/loggedError";
import { createEventBus, type EventBus } from "./live/eventBus";
import { resources as registry } from "#resources";
import type { DomainModule } from "./engine/types";
import { buildModules } from "./engine/registry";
import { resourceRoutes } from "./engine/routeFactory";
import { adminAuth, type EngineServices } from "./engine/services";
import { createIdentityObserver } from "./domain/identityEvents/observer";
import { createSecretBox, LOCAL_SECRETS_KEY } from "./lib/secretBox";
import { domainJobs } from "./domain/jobs";
import { startJobQueue } from "./jobs/jobQueue";
import { promptAutoTopUps } from "./domain/autoTopUps/run";
import { BULK_JOB_SWEEP } from "./domain/bulkJobs/runner";
import { healthRoutes } from "./routes/health";
import { liveEventRoutes } from "./routes/liveEvents";
import { createEventAudience } from "./live/eventScope";
import { meRoutes } from "./routes/me";
import { consentRoutes } from "./routes/consent";
import { notificationPreferenceRoutes } from "./routes/notificationPreferences";
import { profileRoutes } from "./routes/profile";
import { carePinRoutes } from "./routes/carePin";
import { accessLogRoutes } from "./routes/accessLog";
import { featureFlagRoutes } from "./routes/featureFlags";
import { createFeatureFlags, type FeatureFlagSource } from "./lib/featureFlags";
import { securityPolicyRoutes } from "./routes/securityPolicy";
import { smsAllowanceRoutes } from "./routes/smsAllowance";
import { openApiOptions } from "./openapi/document";
import { declareScopeProblems } from "./openapi/problems";
import { usageIngestRoutes } from "./routes/usageIngest";
import { homeRoutes } from "./routes/home";
import { accountMetersRoutes } from "./routes/accountMeters";
import { kpiRoutes } from "./routes/kpis";
import { billingRunRoutes } from "./domain/billingRuns/routes";
import { paymentWebhookRoutes } from "./payments/webhookRoutes";
import { portingWebhookRoutes } from "./domain/porting/webhookRoutes";
import { promptPortIns } from "./domain/porting/send";
import { portingExchangeClient, type PortingExchangeSettings } from "./portingExchange/client";
import { thisWasntMeRoutes } from "./domain/accountAlerts/routes";
import type { PaymentGateways } from "./payments/gateway";
import type { DestinationStream } from "pino";
import { parsePolicy, serializePolicy } from "#config/contentSecurityPolicy";
import type { DeclaredResource } from "./lib/declaredResource";

/** A Content-Security-Policy with more `connect-src` origins. */
function withConnectSources(policy: string, origins: string[]): string {
  const directives = parsePolicy(policy);
  directives["connect-src"] = [...new Set([...(directives["connect-src"] ?? ["'self'"]), ...origins])];
  return serializePolicy(directives);
}
import { LOCAL_INGEST_KEY, parseServiceKeys, type ServiceKeys } from "./auth/serviceKeys";
import { addSecurityHeaders, securityHeaderValues, setSecurityHeaders } from "./securityHeaders";
import { addNoStore } from "./cacheControl";
import { requireMinAppVersion } from "./lib/minAppVersion";
import type { BitrixSettings } from "./domain/crm/bitrixClient";
import { startCrmDelivery } from "./domain/crm/deliveryWorker";
import { readPortalBuild, sendIndex, serveStatic } from "./static";
import type { FileStore } from "./files/fileStore";
import { createTemporaryDiskFileStore } from "./files/diskFileStore";
import { DEFAULT_FILE_MAX_BYTES } from "#resources/files";
import { DEFAULT_UPLOAD_QUOTA, type UploadQuota } from "./domain/files/uploadQuota";

export interface AppDeps {
  database: Database;
  /** Months of raw usage kept (USAGE_RETENTION_MONTHS); the daily job drops older months once billed. */
  usageRetentionMonths?: number;
  /** Months of the usage chart's daily sums kept (USAGE_DAILY_RETENTION_MONTHS); the daily job drops older months. */
  usageDailyRetentionMonths?: number;
  /** Hot standbys for reads that may lag (DATABASE_READ_URLS); closed with the app. None: every read on `database`. */
  readReplicas?: ReadRouter;
  verifier: TokenVerifier;
  /** firebase-admin Auth for claims, staff users and revocation; identity routes answer 503 without it. */
  auth?: Auth;
  operator: string;
  /**
   * Rate usage past the allowance in the ingest (issue 24). Always on in the product; only the usage
   * ingest bench turns it off, to measure the bare counting it is compared with.
   */
  usageRating?: boolean;
  /** Overrides of the rate limits (tests use small numbers); the hits are counted in the database, across instances. */
  rateLimits?: Partial<RateLimits>;
  /** How long operator settings (the staff MFA policy) are cached; changes invalidate every instance at once, so this only bounds a missed notification. */
  operatorSettingsTtlMs?: number;
  staticDir?: string;
  /** Send Strict-Transport-Security (production: the portal is only ever served over HTTPS). */
  strictTransportSecurity?: boolean;
  corsOrigins?: string[];
  logLevel?: string;
  /** The proxies whose X-Forwarded-For tells the client address (a hop count or their addresses; never every entry): per-address rate limits use it. */
  trustProxy?: TrustedProxies;
  /** The declared resources (src/resources by default); tests pass their own declarations. */
  resources?: readonly DeclaredResource[];
  /** Domain modules of `store: "table"` resources (server/domain/modules.ts by default). */
  domainModules?: Record<string, DomainModule>;
  /** Base64 of the 32-byte key that seals secrets at rest (PUKs); local mode's fixed key by default. */
  secretsKey?: string;
  /** How recent a sign-in must be for actions declared with `reauth`; 5 minutes unless a test shortens it. */
  reauthMaxAgeSeconds?: number;
  /** Run the domain's background jobs (pg-boss on the same database); the server does, tests only when they test jobs. */
  jobs?: boolean;
  /** API keys of the network's mediation (POST /usage-records/batch); local mode's key for `operator` unless given. */
  ingestApiKeys?: ServiceKeys;
  /** Portals sending an older X-App-Version get 426 (problem+json) and are told to reload; none: any version. */
  minAppVersion?: string;
  /** "Bitrix integration required": deliver the CRM outbox to this Bitrix24 webhook. None: nothing leaves. */
  crm?: BitrixSettings & { pollIntervalMs?: number };
  /** Feature flags (Remote Config server template); by default the repo's template over the in-code defaults. */
  featureFlags?: FeatureFlagSource;
  /** Resource events for GET /api/v1/live; by default a bus on `database` (LISTEN/NOTIFY), closed with the app. */
  events?: EventBus;
  /** Where uploaded files go (server/files): a disk folder or Firebase Storage; a temporary folder removed on close by default. */
  fileStore?: FileStore;
  /** The largest upload in bytes (10 MiB by default). */
  fileMaxBytes?: number;
  /** What one subscriber may upload a day (50 files, 200 MB by default); tests use small numbers. */
  uploadQuota?: Partial<UploadQuota>;
  /** Card gateways this server is wired to, by the operator setting that names them (`sandbox`); none: card top-ups answer 503. */
  paymentGateways?: PaymentGateways;
  /** The bill-payment gateway's name among paymentGateways (BILL_PAYMENT_GATEWAY); unless given, "sandbox" when one is wired, else "" (none: bills are not paid by card or bank here, 422). */
  billPaymentGateway?: string;
  /** The number portability exchange the backend files port-ins with (its URL, API key and webhook secret); none: they stay queued. */
  portingExchange?: PortingExchangeSettings;
  /** Where the log goes (stdout by default); tests capture it. */
  logStream?: DestinationStream;
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * The access log: one line per request once it is answered, with everything Fastify's "incoming
 * request" line held (the request id, method, url, operator, app version) plus the status and the
 * time taken. Fastify's two lines a request cost ~4 µs more CPU than one (nearly half the log's cost)
 * and said twice what one says. The arrival is logged at debug level, for a request that never ends.
 */
class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, "request errored");
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}

/** How an answer names the part of a request that Fastify validated (its `validationContext`). */
const REQUEST_PARTS: Record<string, "query" | "path" | "body" | "headers"> = {
  querystring: "query",
  params: "path",
  body: "body",
  headers: "headers",
};

/** The common backend: health, OpenAPI, /api/v1 resources and (when built) the portal itself. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const portal = deps.staticDir ? readPortalBuild(deps.staticDir) : undefined;
  // The browser posts cards to the wired gateways' tokenizers (never to this API): the portal's policy lets it.
  const tokenizers = Object.values(deps.paymentGateways ?? {}).map((gateway) => new URL(gateway.tokenizeUrl).origin);
  const portalPolicy =
    portal?.contentSecurityPolicy && tokenizers.length
      ? withConnectSources(portal.contentSecurityPolicy, tokenizers)
      : portal?.contentSecurityPolicy;
  const securityHeaders = { portalPolicy, strictTransportSecurity: deps.strictTransportSecurity ?? false };
  const logLevel = deps.logLevel ?? "info";
  const app = Fastify({
    logger: {
      level: logLevel,
      // Written in the background, lines that pile up during one write going out together: a
      // synchronous write per line cost more CPU than the rest of a cached read. Flushed on exit;
      // a SIGKILL loses at most the lines of the write in flight.
      ...(logLevel === "silent" ? {} : { stream: deps.logStream ?? pino.destination({ dest: 1, sync: false }) }),
      // Ids, routes and shapes, never what a person typed: query values (a care search, an upload's
      // name, the live channel's token) and a failed query's parameters stay out of the log. Of the
      // headers only the operator and app version: no token to redact, so no redaction pass per line.
      serializers: {
        req: (req) => ({
          method: req.method,
          url: loggedUrl(req.url),
          operator: req.headers["x-operator"],
          appVersion: req.headers["x-app-version"],
        }),
        err: (error) => loggedError(error),
      },
    },
    requestIdHeader: false,
    logController: new AccessLog(),
    // Errors raised before routing (an undecodable URL, an overlong path parameter, a request that is
    // not HTTP) never reach routes or hooks: they are problems like every other 4xx, with the same
    // security headers, and do not echo the URL back.
    frameworkErrors: (error, _request, reply) => {
      setSecurityHeaders(reply, securityHeaders);
      reply.header("cache-control", "no-store");
      const detail = words(error.code === "FST_ERR_MAX_PARAM_LENGTH" ? "http.pathParamTooLong" : "http.urlNotValid");
      sendProblem(reply, error.statusCode ?? 400, detail, [{ path: "path", message: detail }]);
    },
    clientErrorHandler: (error, socket) => sendClientErrorProblem(error, socket, securityHeaderValues(securityHeaders)),
    trustProxy: fastifyTrustProxy(deps.trustProxy ?? false),
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  addSecurityHeaders(app, securityHeaders);
  addNoStore(app);
  app.addHook("preValidation", (request, _reply, done) => {
    rejectUnstorableText(request); // a throw here is the hook's error, as a rejection would be
    done();
  });
  if (deps.minAppVersion) app.addHook("onRequest", requireMinAppVersion(deps.minAppVersion));

  if (deps.corsOrigins?.length) {
    await app.register(cors, {
      origin: deps.corsOrigins,
      allowedHeaders: [
        "authorization",
        "content-type",
        "x-operator",
        "x-app-version",
        "idempotency-key",
        "x-request-id",
        "accept-language",
      ],
      exposedHeaders: ["x-total-count", "x-request-id", "retry-after", "x-min-app-version"],
    });
  }

  // Every route answers 400 for text that cannot be stored (rejectUnstorableText); the document says so.
  app.addHook("onRoute", declareScopeProblems(400));
  await app.register(swagger, openApiOptions(deps.resources ?? registry));

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof RequestInvalid) {
      const where = REQUEST_PARTS[error.validationContext ?? ""] ?? "request";
      const errors = error.issues.map((issue) => ({
        path: issue.path.join(".") || where,
        message: (locale: Locale) => validationText(issue, locale),
      }));
      return sendProblem(reply, 400, notValid(where, errors), errors);
    }
    if (error instanceof ProblemError)
      return sendProblem(reply, error.status, error.detail, error.errors, error.type, error.headers, error.extensions);
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return sendProblem(reply, status, fastifyErrorText(error as Error));
    if (isTransientConflict(error)) {
      request.log.warn({ err: error }, "transaction rolled back by a concurrent one");
      return sendProblem(reply, 503, words("http.concurrent"), undefined, "about:blank", { "retry-after": "1" });
    }
    request.log.error({ err: error }, "unhandled error");
    return sendProblem(reply, 500, words("http.internal"));
  });

  const events = deps.events ?? createEventBus(deps.database, { log: app.log });
  if (!deps.events) {
    app.addHook("onClose", async () => events.close());
    await events.ready;
  }

  await app.register(healthRoutes(deps.database, deps.operator, deps.readReplicas));
  app.get("/api/openapi.json", { schema: { hide: true } }, () => app.swagger());

  const operators = createOperatorDirectory(deps.database.db, {
    ttlMs: deps.operatorSettingsTtlMs ?? OPERATOR_SETTINGS_TTL_MS,
  });
  // Role changes, disabled accounts, sign-outs and policy changes reach every instance's caches.
  const invalidation = createAccessInvalidation(events.access, { verifier: deps.verifier, operators }, app.log);
  app.addHook("onClose", (_instance, done) => {
    invalidation.close();
    done();
  });

  const featureFlags = deps.featureFlags ?? createFeatureFlags({ app: deps.auth?.app });
  const readReplicas = deps.readReplicas;
  if (readReplicas) {
    // Read-your-writes: once a person's write has committed (the handler returned), their next reads
    // go only to a standby that has replayed it. onSend runs before the answer leaves.
    app.addHook("onSend", (request, _reply, payload, done) => {
      if (request.method !== "GET" && request.method !== "HEAD" && request.principal)
        readReplicas.wrote(request.principal.uid);
      done(null, payload);
    });
    // The same for whoever a change is about, whoever made it (an agent, the network's usage, a
    // payment webhook): the event arrives after the commit, and their live refresh must see it.
    const stopOwnersReadingStale = events.subscribe((event) => {
      for (const uid of event.ownerUids ?? []) readReplicas.wrote(uid);
    });
    app.addHook("onClose", async () => {
      stopOwnersReadingStale();
      await readReplicas.close();
    });
  }
  const services: EngineServices = {
    db: deps.database.db,
    reader: readReplicas ? (principal) => readReplicas.forReader(principal?.uid) : () => deps.database.db,
    auth: deps.auth,
    invalidation,
    operators,
    limiter: createRateLimiter(deps.database.db, { limits: deps.rateLimits }),
    events,
    secrets: createSecretBox(deps.secretsKey ?? LOCAL_SECRETS_KEY),
    reauthMaxAgeSeconds: deps.reauthMaxAgeSeconds ?? REAUTH_MAX_AGE_SECONDS,
    files: {
      store: deps.fileStore ?? (await createTemporaryDiskFileStore(app)),
      maxBytes: deps.fileMaxBytes ?? DEFAULT_FILE_MAX_BYTES,
      quota: { ...DEFAULT_UPLOAD_QUOTA, ...deps.uploadQuota },
    },
    payments: deps.paymentGateways ?? {},
    // An app built without gateways (most tests) takes no bill payments rather than naming one it lacks (503).
    billPaymentGateway: deps.billPaymentGateway ?? (deps.paymentGateways?.sandbox ? "sandbox" : ""),
    featureFlags,
    portingExchange: deps.portingExchange ? portingExchangeClient(deps.portingExchange) : undefined,
    usageRetentionMonths: deps.usageRetentionMonths,
    usageDailyRetentionMonths: deps.usageDailyRetentionMonths,
  };

  // Sign-in related and unauthenticated: rate limited per client IP before anything else.
  await app.register(
    async (signIn) => {
      signIn.addHook("onRoute", declareScopeProblems(400, 429));
      signIn.addHook("onRequest", async (request) => {
        await services.limiter.enforce([
          {
            limit: "authPerIp",
            key: request.ip,
            detail: words("http.tooManySignIns"),
          },
        ]);
        operatorHeader(request);
      });
      await signIn.register(smsAllowanceRoutes(services.operators, services.limiter));
    },
    { prefix: "/api/auth" },
  );

  // Every declared resource through the one route factory, with the module that serves it.
  const modules = buildModules(deps.resources ?? registry, deps.domainModules);
  for (const { module } of modules.values()) await module.prepare?.(deps.database.db);

  await app.register(
    async (v1) => {
      v1.addHook("onRoute", declareScopeProblems(400, 401, 403));
      // Identity events need the user record: an app built without firebase-admin records none.
      const identityObserver = services.auth
        ? createIdentityObserver({ db: services.db, auth: () => adminAuth(services) })
        : undefined;
      v1.addHook("onRequest", authenticateRequest(deps.verifier, services.operators, identityObserver));
      for (const { resource, module } of modules.values()) {
        await v1.register(resourceRoutes(resource, module, services, modules));
        if (module.extraRoutes) await v1.register(module.extraRoutes(services));
      }
      await v1.register(meRoutes(services));
      await v1.register(consentRoutes(services));
      await v1.register(notificationPreferenceRoutes(services));
      await v1.register(profileRoutes(services));
      await v1.register(carePinRoutes(services));
      await v1.register(accessLogRoutes(services));
      await v1.register(featureFlagRoutes(featureFlags));
      await v1.register(securityPolicyRoutes(services));
      await v1.register(liveEventRoutes(services, events, deps.verifier, createEventAudience(services.db, modules)));
      await v1.register(homeRoutes(services));
      await v1.register(accountMetersRoutes(services));
      await v1.register(kpiRoutes(services));
      await v1.register(billingRunRoutes(services));
    },
    { prefix: "/api/v1" },
  );
  // Machine callers (usage mediation): API keys, never a person's token; outside the hook above.
  await app.register(
    usageIngestRoutes(services, deps.ingestApiKeys ?? parseServiceKeys(LOCAL_INGEST_KEY, deps.operator), {
      rating: deps.usageRating ?? true,
    }),
    { prefix: "/api/v1" },
  );
  // Card gateways' signed webhooks: signature authentication, never a person's token.
  await app.register(paymentWebhookRoutes(services), { prefix: "/api/v1" });
  // The number portability exchange's signed answers: signature authentication, never a person's token.
  await app.register(portingWebhookRoutes(services), { prefix: "/api/v1" });
  // "This wasn't me" links of account alerts: the link's token, never a person's token (issue 27).
  await app.register(thisWasntMeRoutes(services), { prefix: "/api/v1" });

  if (deps.jobs) {
    services.jobs = await startJobQueue(deps.database, domainJobs(services), { log: app.log });
    app.addHook("onClose", async () => services.jobs?.stop());
    // Bulk jobs a restart interrupted resume at once, not at the next minute's sweep.
    await services.jobs.send(BULK_JOB_SWEEP, {});
    // Auto top-ups queued by a debit run once it commits, not at the next minute's sweep.
    const stopPrompting = promptAutoTopUps(services, app.log);
    // Port-ins queued by a write are sent to the exchange once it commits.
    const stopPromptingPortIns = promptPortIns(services, app.log);
    app.addHook("onClose", (_instance, done) => {
      stopPrompting();
      stopPromptingPortIns();
      done();
    });
  }

  if (deps.crm) {
    const delivery = startCrmDelivery(deps.database.db, deps.crm, app.log, deps.crm.pollIntervalMs);
    app.addHook("onClose", async () => delivery.stop());
  }

  if (portal) await serveStatic(app, portal);
  app.setNotFoundHandler((request, reply) => {
    // Client routes get index.html; a missing hashed asset must stay a 404, never HTML.
    const clientRoute = !request.url.startsWith("/api") && !request.url.startsWith("/assets/");
    if (portal && (request.method === "GET" || request.method === "HEAD") && clientRoute) return sendIndex(reply);
    return sendProblem(reply, 404, words("http.noRoute", { method: request.method, path: request.url.split("?")[0]! }));
  });

  return app;
}
