import { randomUUID } from "node:crypto";
import { initializeApp, type App } from "firebase-admin/app";
import { getAuth, type Auth } from "firebase-admin/auth";

/**
 * A firebase-admin Auth bound to one project. With an emulator host it talks to the Auth emulator
 * (firebase-admin reads FIREBASE_AUTH_EMULATOR_HOST from the environment, so it is set here, before
 * the first call); the server's config refuses that in production mode.
 */
export function createAdminAuth(options: { projectId: string; emulatorHost?: string }): { app: App; auth: Auth } {
  if (options.emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.emulatorHost;
  const app = initializeApp({ projectId: options.projectId }, `portal-${randomUUID()}`);
  return { app, auth: getAuth(app) };
}
