import { randomUUID } from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../server/app";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { seedAuthUsers } from "../../server/auth/seedAuthUsers";
import { createTokenVerifier, type TokenVerifier } from "../../server/auth/tokenVerifier";
import type { Database } from "../../server/db/client";
import { attSeed, DEMO_PASSWORD, demoUsers } from "../../server/db/seed/demoData";
import { seedOperator } from "../../server/db/seed/seedDatabase";
import { seedStaff } from "../../server/db/seed/seedStaff";
import type { AppDeps } from "../../server/app";
import { EMULATOR_HOST, PROJECT_ID } from "./authEmulator";
import { freshPhoneNumber } from "./emulatorCodes";
import { otherOperatorSeed, otherOperatorUsers } from "./fixtures";
import { openAnotherHandle, openTestDatabase } from "./testDatabase";
import { createSecretBox, LOCAL_SECRETS_KEY } from "../../server/lib/secretBox";

/** One backend instance driven through fastify.inject. */
export interface TestInstance {
  app: FastifyInstance;
  /** This instance's token verifier (its own cache). */
  verifier: TokenVerifier;
  /** GET with a user's token and X-Operator (ATT unless given). */
  get(
    url: string,
    options?: { as?: string; token?: string; operator?: string | null },
  ): Promise<LightMyRequestResponse>;
  /** Any method with a user's token, X-Operator (ATT unless given), a JSON body and extra headers. */
  send(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    url: string,
    options?: SendOptions,
  ): Promise<LightMyRequestResponse>;
}

export interface TestBackend extends TestInstance {
  database: Database;
  auth: ReturnType<typeof createAdminAuth>["auth"];
  /** ID token of a seeded user, signed in through the emulator's REST API. */
  tokenFor(email: string): Promise<string>;
  /**
   * A second backend instance on the same database, as a second server would run: its own caches
   * and event bus and, on PostgreSQL, its own pool and LISTEN connection. Closed with the backend.
   */
  startAnotherInstance(options?: BackendOptions): Promise<TestInstance>;
  close(): Promise<void>;
}

export type BackendOptions = Pick<
  AppDeps,
  | "rateLimits"
  | "operatorSettingsTtlMs"
  | "resources"
  | "staticDir"
  | "strictTransportSecurity"
  | "reauthMaxAgeSeconds"
  | "ingestApiKeys"
  | "minAppVersion"
  | "crm"
  | "fileMaxBytes"
  | "fileStore"
  | "paymentGateways"
  | "billPaymentGateway"
  | "logStream"
  | "logLevel"
  | "featureFlags"
  | "trustProxy"
  | "uploadQuota"
  | "portingExchange"
  | "readReplicas"
> & {
  /** TOKEN_CACHE_SECONDS of the instance (30 unless given). */
  tokenCacheSeconds?: number;
};

export interface SendOptions {
  as?: string;
  token?: string;
  operator?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  /** The client address the server sees (request.ip). */
  remoteAddress?: string;
}

const IDENTITY_TOOLKIT = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com`;

async function identityToolkit<T>(path: string, body: unknown): Promise<T & { error?: { message: string } }> {
  const res = await fetch(`${IDENTITY_TOOLKIT}${path}?key=demo-api-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T & { error?: { message: string } };
}

/** Creates an email/password user through the emulator's public REST API (as the portal would) and returns its uid and ID token. */
export async function signUpWithPassword(email: string, password: string): Promise<{ uid: string; idToken: string }> {
  const body = await identityToolkit<{ localId?: string; idToken?: string }>("/v1/accounts:signUp", {
    email,
    password,
    returnSecureToken: true,
  });
  if (!body.idToken || !body.localId) throw new Error(`Sign-up of ${email} failed: ${body.error?.message}`);
  return { uid: body.localId, idToken: body.idToken };
}

/**
 * Signs in a user who has an enrolled phone second factor: password, then the SMS code the emulator
 * generated (read from its verificationCodes endpoint). The token carries firebase.sign_in_second_factor.
 */
export async function signInWithSecondFactor(email: string, password: string): Promise<string> {
  const first = await identityToolkit<{ mfaPendingCredential?: string; mfaInfo?: { mfaEnrollmentId: string }[] }>(
    "/v1/accounts:signInWithPassword",
    {
      email,
      password,
      returnSecureToken: true,
    },
  );
  if (!first.mfaPendingCredential || !first.mfaInfo?.[0])
    throw new Error(`${email} has no second factor to sign in with: ${first.error?.message ?? "no MFA challenge"}`);
  const start = await identityToolkit<{ phoneResponseInfo?: { sessionInfo: string } }>("/v2/accounts/mfaSignIn:start", {
    mfaPendingCredential: first.mfaPendingCredential,
    mfaEnrollmentId: first.mfaInfo[0].mfaEnrollmentId,
    phoneSignInInfo: {},
  });
  const sessionInfo = start.phoneResponseInfo?.sessionInfo;
  if (!sessionInfo) throw new Error(`MFA sign-in of ${email} did not start: ${start.error?.message}`);
  const codes = (await (
    await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/verificationCodes`)
  ).json()) as {
    verificationCodes: { sessionInfo: string; code: string }[];
  };
  const code = codes.verificationCodes.find((c) => c.sessionInfo === sessionInfo)?.code;
  const done = await identityToolkit<{ idToken?: string }>("/v2/accounts/mfaSignIn:finalize", {
    mfaPendingCredential: first.mfaPendingCredential,
    phoneVerificationInfo: { sessionInfo, code },
  });
  if (!done.idToken) throw new Error(`MFA sign-in of ${email} failed: ${done.error?.message}`);
  return done.idToken;
}

/**
 * A throwaway admin of ATT with an enrolled phone second factor, signed in with it: the one who may
 * still change the security policy while staff must use a second factor. The caller deletes `uid`.
 */
export async function adminWithSecondFactor(
  auth: TestBackend["auth"],
  password: string,
): Promise<{ uid: string; token: string }> {
  const email = `mfa-admin-${randomUUID()}@example.test`;
  const user = await auth.createUser({
    email,
    password,
    emailVerified: true,
    multiFactor: { enrolledFactors: [{ factorId: "phone", phoneNumber: freshPhoneNumber() }] },
  });
  await auth.setCustomUserClaims(user.uid, { role: "admin", operator: "ATT" });
  return { uid: user.uid, token: await signInWithSecondFactor(email, password) };
}

/** Signs in with email and password against the Auth emulator and returns the ID token. */
export async function signInWithPassword(email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await fetch(
    `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await res.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`Sign-in of ${email} failed: ${body.error?.message}`);
  return body.idToken;
}

/** The real backend (real database, real Auth emulator) driven through fastify.inject. */
export async function startTestBackend(
  options: BackendOptions = {},
  /** A migrated database of the test's own (closed with the backend); a fresh test database by default. */
  own?: { database: Database },
): Promise<TestBackend> {
  const database = own?.database ?? (await openTestDatabase());
  const secrets = createSecretBox(LOCAL_SECRETS_KEY);
  await seedOperator(database.db, attSeed, secrets);
  await seedOperator(database.db, otherOperatorSeed, secrets);
  await seedStaff(database.db, [...demoUsers, ...otherOperatorUsers]);
  const { auth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
  await seedAuthUsers(auth, [...demoUsers, ...otherOperatorUsers]);
  const tokens = new Map<string, string>();
  const tokenFor = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await signInWithPassword(email));
    return tokens.get(email)!;
  };

  const instanceOn = async (
    db: Database,
    { tokenCacheSeconds, ...appOptions }: BackendOptions,
  ): Promise<TestInstance> => {
    const verifier = createTokenVerifier(auth, { cacheSeconds: tokenCacheSeconds });
    const app = await buildApp({ database: db, verifier, auth, operator: "ATT", logLevel: "silent", ...appOptions });
    return { app, verifier, ...injectorFor(app, tokenFor) };
  };

  const main = await instanceOn(database, options);
  const others: { instance: TestInstance; handle: Database }[] = [];
  return {
    ...main,
    database,
    auth,
    tokenFor,
    async startAnotherInstance(instanceOptions = {}) {
      const handle = await openAnotherHandle(database);
      const instance = await instanceOn(handle, instanceOptions);
      others.push({ instance, handle });
      return instance;
    },
    async close() {
      for (const { instance, handle } of others) {
        await instance.app.close();
        await handle.close();
      }
      await main.app.close();
      await database.close();
    },
  };
}

/** get() and send() of an app: a user's token, X-Operator (ATT unless given), a JSON body and extra headers. */
function injectorFor(
  app: FastifyInstance,
  tokenFor: (email: string) => Promise<string>,
): Pick<TestInstance, "get" | "send"> {
  return {
    async get(url, options = {}) {
      const headers: Record<string, string> = { "x-app-version": "3.2.1" };
      const token = options.token ?? (options.as ? await tokenFor(options.as) : undefined);
      if (token) headers.authorization = `Bearer ${token}`;
      if (options.operator !== null) headers["x-operator"] = options.operator ?? "ATT";
      return app.inject({ method: "GET", url, headers });
    },
    async send(method, url, options = {}) {
      const headers: Record<string, string> = { "x-app-version": "3.2.1", ...options.headers };
      const token = options.token ?? (options.as ? await tokenFor(options.as) : undefined);
      if (token) headers.authorization = `Bearer ${token}`;
      if (options.operator !== null) headers["x-operator"] = options.operator ?? "ATT";
      return app.inject({
        method,
        url,
        headers,
        ...(options.body !== undefined ? { payload: options.body as object } : {}),
        ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      });
    },
  };
}
