// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdminAuth } from "../../server/auth/firebaseAdmin";
import { seedAuthUsers } from "../../server/auth/seedAuthUsers";
import { DEMO_PASSWORD, demoUsers } from "../../server/db/seed/demoData";
import { setLocale } from "../../src/i18n";
import { en } from "../../src/i18n/en";
import { authProvider } from "../../src/providers/authProvider";
import { auth } from "../../src/providers/firebase";
import { currentIdToken } from "../../src/providers/session";
import { EMULATOR_HOST, PROJECT_ID } from "../support/authEmulator";

// The portal's own auth provider (browser build of firebase/auth) against the running Auth emulator.
// jsdom gives firebase/auth the sessionStorage that browserSessionPersistence (remember: false) needs,
// but neither jsdom nor Node has IndexedDB, which login's indexedDBLocalPersistence (remember: true)
// writes to. Every browser the portal supports has it, so the test supplies a small in-memory one,
// installed before src/providers/firebase.ts runs initializeAuth so that Auth sees the storage a
// browser offers. It holds only firebase/auth's own database; any other database fails to open, as
// where storage is blocked, which keeps firebase/app's optional heartbeat store switched off.
const memoryIndexedDb = vi.hoisted(() => {
  const AUTH_DATABASE = "firebaseLocalStorageDb";
  type Row = Record<string, unknown>;
  type Store = { keyPath: string; rows: Map<unknown, Row> };
  const databases = new Map<string, Map<string, Store>>();

  class MemoryRequest extends EventTarget {
    result: unknown = undefined;
    error: unknown = null;
    [handler: `on${string}`]: ((event: Event) => void) | null | undefined;
    /** Fires to both addEventListener listeners and the on<type> property, as IDBRequest does. */
    emit(type: string) {
      const event = new Event(type);
      this[`on${type}`]?.call(this, event);
      this.dispatchEvent(event);
    }
  }
  /** Runs an operation on a later task, as IndexedDB does, and reports success or error. */
  const run = (operation: () => unknown): MemoryRequest => {
    const request = new MemoryRequest();
    setTimeout(() => {
      try {
        request.result = operation();
        request.emit("success");
      } catch (error) {
        request.error = error;
        request.emit("error");
      }
    });
    return request;
  };
  const objectStore = (store: Store, mode: IDBTransactionMode) => {
    const writable = () => {
      if (mode !== "readwrite") throw new DOMException("The transaction is read-only.", "ReadOnlyError");
    };
    return {
      put: (value: Row) =>
        run(() => {
          writable();
          const row = structuredClone(value);
          store.rows.set(row[store.keyPath], row);
          return row[store.keyPath];
        }),
      get: (key: unknown) => run(() => structuredClone(store.rows.get(key))),
      getAll: () => run(() => [...store.rows.values()].map((row) => structuredClone(row))),
      delete: (key: unknown) =>
        run(() => {
          writable();
          store.rows.delete(key);
          return undefined;
        }),
    };
  };
  const connection = (stores: Map<string, Store>) => ({
    objectStoreNames: { contains: (name: string) => stores.has(name) },
    createObjectStore: (name: string, options: { keyPath: string }) =>
      void stores.set(name, { keyPath: options.keyPath, rows: new Map() }),
    transaction: (names: string[], mode: IDBTransactionMode = "readonly") => ({
      objectStore(name: string) {
        const store = stores.get(name);
        if (!store || !names.includes(name))
          throw new DOMException(`No object store ${name} in this transaction.`, "NotFoundError");
        return objectStore(store, mode);
      },
    }),
    close() {},
  });

  Object.defineProperty(globalThis, "indexedDB", {
    configurable: true,
    value: {
      open(name: string) {
        const request = new MemoryRequest();
        setTimeout(() => {
          if (name !== AUTH_DATABASE) {
            request.error = new DOMException(`The test's IndexedDB holds only ${AUTH_DATABASE}.`, "UnknownError");
            return request.emit("error");
          }
          const created = !databases.has(name);
          if (created) databases.set(name, new Map());
          request.result = connection(databases.get(name)!);
          if (created) request.emit("upgradeneeded");
          request.emit("success");
        });
        return request;
      },
      deleteDatabase: (name: string) => run(() => void databases.delete(name)),
    },
  });
  /** The keys firebase/auth keeps in its IndexedDB store. */
  return {
    authKeys: () => [...(databases.get(AUTH_DATABASE)?.get("firebaseLocalStorage")?.rows.keys() ?? [])].map(String),
  };
});

const ALEX = { email: "alex@example.com", password: DEMO_PASSWORD };
const isAuthUserKey = (key: string) => key.startsWith("firebase:authUser:");
const sessionStorageKeys = () => Object.keys(sessionStorage).filter(isAuthUserKey);
const indexedDbKeys = () => memoryIndexedDb.authKeys().filter(isAuthUserKey);

beforeAll(async () => {
  expect(DEMO_PASSWORD).toBe("Demo-2026!");
  // Idempotent: creates the demo users only if the emulator has forgotten them.
  const { auth: adminAuth } = createAdminAuth({ projectId: PROJECT_ID, emulatorHost: EMULATOR_HOST });
  await seedAuthUsers(adminAuth, demoUsers);
  setLocale("en");
});

afterEach(async () => {
  await authProvider.logout();
  setLocale("en");
});

afterAll(async () => {
  await authProvider.logout();
});

/** The payload of a JWT, without checking its signature. */
function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

/** Asks the emulator who a token belongs to; the emulator refuses tokens it did not issue. */
async function emulatorLookup(idToken: string): Promise<{ localId: string; email: string }> {
  const res = await fetch(
    `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:lookup?key=demo-api-key`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ idToken }),
    },
  );
  const body = (await res.json()) as { users?: { localId: string; email: string }[]; error?: { message: string } };
  if (!res.ok || !body.users?.[0])
    throw new Error(`the emulator refused the token: ${res.status} ${body.error?.message}`);
  return body.users[0];
}

describe("authProvider against the Auth emulator", () => {
  it("the portal's Firebase Auth talks to the emulator of the demo project", () => {
    expect(auth.emulatorConfig).toMatchObject({ host: "127.0.0.1", port: 9099 });
    expect(auth.app.options.projectId).toBe(PROJECT_ID);
  });

  it("signed out: check is unauthenticated with a redirect to /login, no identity, no permissions, no token", async () => {
    expect(await authProvider.check()).toEqual({ authenticated: false, logout: true, redirectTo: "/login" });
    expect(await authProvider.getIdentity()).toBeNull();
    expect(await authProvider.getPermissions()).toBeNull();
    expect(await currentIdToken()).toBeNull();
  });

  it("login as alex, then check, getIdentity, getPermissions, logout", async () => {
    expect(await authProvider.login(ALEX)).toEqual({ success: true, redirectTo: "/" });

    expect(await authProvider.check()).toEqual({ authenticated: true });
    expect(await authProvider.getIdentity()).toEqual({
      uid: "demo-alex",
      email: "alex@example.com",
      name: "Alex Rivera",
      role: "subscriber",
      operator: "ATT",
    });
    expect(await authProvider.getPermissions()).toBe("subscriber");

    expect(await authProvider.logout()).toEqual({ success: true, redirectTo: "/login" });
    expect(auth.currentUser).toBeNull();
    expect(await authProvider.check()).toEqual({ authenticated: false, logout: true, redirectTo: "/login" });
    expect(await authProvider.getIdentity()).toBeNull();
  });

  it("login keeps a redirectTo it is given and trims the email", async () => {
    expect(await authProvider.login({ ...ALEX, email: "  alex@example.com ", redirectTo: "/lines" })).toEqual({
      success: true,
      redirectTo: "/lines",
    });
    expect((await authProvider.getIdentity())?.uid).toBe("demo-alex");
  });

  it("remember (the default) keeps the session in IndexedDB, which outlives the tab", async () => {
    await authProvider.login(ALEX);
    expect(indexedDbKeys()).toHaveLength(1);
    expect(sessionStorageKeys()).toEqual([]);
    await authProvider.logout();
    expect(indexedDbKeys()).toEqual([]);
  });

  it("login with remember: false works too, keeping the session for this tab only", async () => {
    expect(await authProvider.login({ ...ALEX, remember: false })).toEqual({ success: true, redirectTo: "/" });
    expect(await authProvider.check()).toEqual({ authenticated: true });
    expect((await authProvider.getIdentity())?.uid).toBe("demo-alex");
    expect(sessionStorageKeys()).toHaveLength(1);
    expect(indexedDbKeys()).toEqual([]);

    await authProvider.logout();
    expect(sessionStorageKeys()).toEqual([]);
    expect(await authProvider.check()).toMatchObject({ authenticated: false });

    // The next remembered sign-in goes back to IndexedDB.
    await authProvider.login(ALEX);
    expect(indexedDbKeys()).toHaveLength(1);
    expect(sessionStorageKeys()).toEqual([]);
  });

  it("an agent's identity carries the agent role", async () => {
    expect(await authProvider.login({ email: "agent@att.example", password: DEMO_PASSWORD })).toMatchObject({
      success: true,
    });
    expect(await authProvider.getIdentity()).toMatchObject({
      email: "agent@att.example",
      role: "agent",
      operator: "ATT",
    });
    expect(await authProvider.getPermissions()).toBe("agent");
  });

  it("a wrong password fails with the translated invalid-credential message, never an auth/ code", async () => {
    const result = await authProvider.login({ ...ALEX, password: "not-the-password" });
    expect(result).toEqual({ success: false, error: { name: "form", message: en["signIn.errors.invalidCredential"] } });
    expect(result.success ? "" : result.error.message).not.toContain("auth/");
    expect(await authProvider.check()).toMatchObject({ authenticated: false });
  });

  it("an unknown email fails with the same message (no account enumeration)", async () => {
    const result = await authProvider.login({ email: "nobody-here@example.com", password: DEMO_PASSWORD });
    expect(result).toEqual({ success: false, error: { name: "form", message: en["signIn.errors.invalidCredential"] } });
  });

  it("a malformed email fails at the email field", async () => {
    const result = await authProvider.login({ email: "not-an-email", password: DEMO_PASSWORD });
    expect(result).toEqual({ success: false, error: { name: "email", message: en["signIn.errors.emailInvalid"] } });
  });

  it("currentIdToken is an emulator-accepted JWT of the signed-in user, and null after sign-out", async () => {
    await authProvider.login(ALEX);
    const token = await currentIdToken();
    expect(typeof token).toBe("string");
    expect(token!.split(".")).toHaveLength(3);
    expect(jwtPayload(token!)).toMatchObject({
      user_id: "demo-alex",
      role: "subscriber",
      operator: "ATT",
      aud: PROJECT_ID,
    });
    expect(await emulatorLookup(token!)).toMatchObject({ localId: "demo-alex", email: "alex@example.com" });

    const fresh = await currentIdToken(true);
    expect(fresh!.split(".")).toHaveLength(3);
    expect((await emulatorLookup(fresh!)).localId).toBe("demo-alex");

    await authProvider.logout();
    expect(await currentIdToken()).toBeNull();
  });
});

describe("authProvider.onError", () => {
  it("a 401 signs out and sends to /login with the session-expired message", async () => {
    const result = await authProvider.onError({ statusCode: 401 });
    expect(result).toMatchObject({ logout: true, redirectTo: "/login" });
    expect((result as { error?: Error }).error?.message).toBe(en["auth.errors.sessionExpired"]);
  });

  it.each([403, 404, 422, 500, undefined])("a %s is left to the page: {}", async (statusCode) => {
    expect(await authProvider.onError({ statusCode })).toEqual({});
  });
});
