import type { Auth } from "firebase-admin/auth";
import type { DemoUser } from "../db/seed/demoData";

/**
 * Makes sure each demo user exists in Firebase Auth with its fixed uid, password and claims.
 * Idempotent, so it runs on every local start (the emulator forgets users between runs), and safe
 * to run concurrently against one emulator.
 */
export async function seedAuthUsers(auth: Auth, users: DemoUser[]): Promise<{ created: number }> {
  let created = 0;
  for (const user of users) {
    try {
      await auth.getUser(user.uid);
    } catch (error) {
      if ((error as { code?: string }).code !== "auth/user-not-found") throw error;
      try {
        await auth.createUser({
          uid: user.uid,
          email: user.email,
          emailVerified: true,
          password: user.password,
          displayName: user.displayName,
        });
        created++;
      } catch (createError) {
        // Another process seeding the same emulator (e.g. parallel test workers) created it first.
        if ((createError as { code?: string }).code !== "auth/uid-already-exists") throw createError;
      }
    }
    await auth.setCustomUserClaims(user.uid, { role: user.role, operator: user.operator });
  }
  return { created };
}
