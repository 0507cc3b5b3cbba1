/**
 * Where uploaded bytes live. One interface, two adapters: the local disk (the default, and what the
 * tests here run against) and Firebase Storage (when a bucket is configured). Keys are opaque
 * paths the backend makes up (`<operator>/<uuid>`), never a client's file name. Who may read what is
 * decided by the routes from the `stored_files` row, not by the store.
 */
export interface FileStore {
  /** What the adapter is, for logs and health ("disk", "firebase-storage"). */
  readonly kind: string;
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_.-]{1,128}){1,3}$/;

/** Keys are made by the backend; this refuses anything else (`..`, absolute paths) before it reaches a store. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split("/").some((part) => part === "." || part === ".."))
    throw new Error(`Not a file store key: ${JSON.stringify(key)}`);
  return key;
}
