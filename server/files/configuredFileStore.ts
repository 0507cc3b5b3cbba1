import type { App } from "firebase-admin/app";
import { createDiskFileStore } from "./diskFileStore";
import type { FileStore } from "./fileStore";

/** The store the configuration asks for: Firebase Storage when a bucket is set, the local disk otherwise. */
export async function createConfiguredFileStore(
  settings: { dir: string; storageBucket?: string },
  app?: App,
): Promise<FileStore> {
  if (!settings.storageBucket) return createDiskFileStore(settings.dir);
  const { createFirebaseFileStore } = await import("./firebaseFileStore");
  return createFirebaseFileStore({ bucket: settings.storageBucket, app });
}
