import type { App } from "firebase-admin/app";
import { checkKey, type FileStore } from "./fileStore";

export interface FirebaseStorageSettings {
  bucket: string;
  /** The firebase-admin app (the one that verifies tokens); the default app otherwise. */
  app?: App;
}

/**
 * Firebase Storage through firebase-admin, used when a bucket is configured. `firebase-admin/storage`
 * (and its Google Cloud Storage client) is imported only then, so the local default never loads it.
 * With FIREBASE_STORAGE_EMULATOR_HOST set, firebase-admin talks to the Storage emulator.
 */
export async function createFirebaseFileStore(settings: FirebaseStorageSettings): Promise<FileStore> {
  const { getStorage } = await import("firebase-admin/storage");
  const bucket = getStorage(settings.app).bucket(settings.bucket);
  return {
    kind: "firebase-storage",
    async put(key, bytes, contentType) {
      await bucket
        .file(checkKey(key))
        .save(bytes, { contentType, resumable: false, metadata: { cacheControl: "private, no-store" } });
    },
    async get(key) {
      try {
        const [bytes] = await bucket.file(checkKey(key)).download();
        return bytes;
      } catch (error) {
        if ((error as { code?: number }).code === 404) return null;
        throw error;
      }
    },
    async delete(key) {
      await bucket.file(checkKey(key)).delete({ ignoreNotFound: true });
    },
  };
}
