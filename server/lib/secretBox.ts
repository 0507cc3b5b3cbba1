import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
} from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/**
 * Secrets at rest. `seal`/`open`: AES-256-GCM for values we must show again (a SIM's PUK), with the
 * backend's SECRETS_KEY. `hash`/`verify`: scrypt for values we only ever compare (a port-out PIN).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** The key of local mode (never for production, where SECRETS_KEY is required). */
export const LOCAL_SECRETS_KEY = createHash("sha256").update("att-portal local development secrets").digest("base64");

export function createSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, "base64");
  if (key.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes, base64-encoded");
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), data.toString("base64")].join(".");
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== "v1" || !iv || !tag || !data) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
      decipher.setAuthTag(Buffer.from(tag, "base64"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString("utf8");
    },
  };
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(secret, salt, 32);
  return `scrypt.${salt.toString("base64")}.${hash.toString("base64")}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split(".");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scrypt(secret, Buffer.from(salt, "base64"), expected.length);
  return timingSafeEqual(actual, expected);
}

/** n random decimal digits (a PIN, a PUK), uniformly drawn. */
export function randomDigits(n: number): string {
  let out = "";
  while (out.length < n) {
    const byte = randomBytes(1)[0]!;
    if (byte < 250) out += String(byte % 10); // 250 = 25 × 10: no modulo bias
  }
  return out;
}
