import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createDiskFileStore } from "../../server/files/diskFileStore";
import type { FileStore } from "../../server/files/fileStore";
import { sniffContentType } from "../../server/files/sniff";
import { SAMPLE_FILES } from "../support/sampleFiles";

/**
 * The file store's contract: every adapter behind server/files/fileStore.ts passes the same suite.
 * The disk adapter runs here; the Firebase Storage adapter runs against the Storage emulator when
 * FIREBASE_STORAGE_EMULATOR_HOST is set (that emulator needs a download and cannot run on this machine).
 */
function contractSuite(name: string, open: () => Promise<{ store: FileStore; close: () => Promise<void> }>) {
  describe(`the file store contract: ${name}`, () => {
    let store: FileStore;
    let close: () => Promise<void> = () => Promise.resolve();
    const key = () => `ATT/${randomUUID()}`;

    it("opens", async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => close());

    it("gives back exactly the bytes it was given", async () => {
      const k = key();
      await store.put(k, SAMPLE_FILES.pdf, "application/pdf");
      expect(Buffer.compare((await store.get(k))!, SAMPLE_FILES.pdf)).toBe(0);
    });

    it("keeps binary content intact (every byte value)", async () => {
      const k = key();
      const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));
      await store.put(k, bytes, "application/octet-stream");
      expect(Buffer.compare((await store.get(k))!, bytes)).toBe(0);
    });

    it("answers null for a key that holds nothing", async () => {
      expect(await store.get(key())).toBeNull();
    });

    it("replaces the bytes under a key that is written again", async () => {
      const k = key();
      await store.put(k, SAMPLE_FILES.png, "image/png");
      await store.put(k, SAMPLE_FILES.jpeg, "image/jpeg");
      expect(Buffer.compare((await store.get(k))!, SAMPLE_FILES.jpeg)).toBe(0);
    });

    it("deletes, and deleting again or a missing key is not an error", async () => {
      const k = key();
      await store.put(k, SAMPLE_FILES.png, "image/png");
      await store.delete(k);
      expect(await store.get(k)).toBeNull();
      await expect(store.delete(k)).resolves.toBeUndefined();
    });

    it.each(["../etc/passwd", "/etc/passwd", "ATT/../../x", "ATT", "ATT/a b", ""])(
      "refuses the key %j before touching storage",
      async (bad) => {
        await expect(store.put(bad, SAMPLE_FILES.pdf, "application/pdf")).rejects.toThrow(/Not a file store key/);
        await expect(store.get(bad)).rejects.toThrow(/Not a file store key/);
      },
    );
  });
}

let diskRoot = "";
contractSuite("local disk", async () => {
  diskRoot = await mkdtemp(join(tmpdir(), "file-store-contract-"));
  return { store: createDiskFileStore(diskRoot), close: () => rm(diskRoot, { recursive: true, force: true }) };
});

describe("the local disk adapter", () => {
  it("leaves no partial file behind and writes nothing outside its folder", async () => {
    const root = await mkdtemp(join(tmpdir(), "file-store-disk-"));
    const store = createDiskFileStore(root);
    await store.put("ATT/one", SAMPLE_FILES.pdf, "application/pdf");
    expect(await readdir(join(root, "ATT"))).toEqual(["one"]);
    expect(await readdir(root)).toEqual(["ATT"]);
    await rm(root, { recursive: true, force: true });
  });
});

describe("the configured store", () => {
  it("is the disk's without a bucket, and Firebase Storage's with one (its Cloud Storage client is installed and loads; nothing is called until a file moves)", async () => {
    const { initializeApp, deleteApp } = await import("firebase-admin/app");
    const { createConfiguredFileStore } = await import("../../server/files/configuredFileStore");
    const root = await mkdtemp(join(tmpdir(), "configured-store-"));
    expect((await createConfiguredFileStore({ dir: root })).kind).toBe("disk");
    const app = initializeApp({ projectId: "demo-att-portal" }, `configured-store-${randomUUID()}`);
    try {
      expect(
        (await createConfiguredFileStore({ dir: root, storageBucket: "demo-att-portal.appspot.com" }, app)).kind,
      ).toBe("firebase-storage");
    } finally {
      await deleteApp(app);
      await rm(root, { recursive: true, force: true });
    }
  });
});

const storageEmulator = process.env.FIREBASE_STORAGE_EMULATOR_HOST;
describe.skipIf(!storageEmulator)(
  "Firebase Storage adapter (skipped unless FIREBASE_STORAGE_EMULATOR_HOST is set: the Storage emulator needs a download and cannot run on this machine)",
  () => {
    contractSuite(`Firebase Storage emulator at ${storageEmulator}`, async () => {
      const { initializeApp, deleteApp } = await import("firebase-admin/app");
      const { createFirebaseFileStore } = await import("../../server/files/firebaseFileStore");
      const app = initializeApp({ projectId: "demo-att-portal" }, `file-store-contract-${randomUUID()}`);
      const store = await createFirebaseFileStore({ bucket: "demo-att-portal.appspot.com", app });
      return { store, close: () => deleteApp(app) };
    });
  },
);

describe("content type sniffing", () => {
  it.each([
    ["pdf", "application/pdf"],
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["webp", "image/webp"],
    ["heic", "image/heic"],
  ] as const)("reads %s from the bytes", (kind, type) => {
    expect(sniffContentType(SAMPLE_FILES[kind])).toBe(type);
  });

  it.each([
    ["an executable", Buffer.from("MZ\x90\x00\x03\x00\x00\x00", "latin1")],
    ["HTML", Buffer.from("<html><script>alert(1)</script></html>")],
    ["SVG", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ["a truncated PNG signature", Buffer.from([0x89, 0x50, 0x4e])],
    ["nothing", Buffer.alloc(0)],
    ["an MP4 video", Buffer.from("\x00\x00\x00\x18ftypisom", "latin1")],
  ])("refuses %s", (_name, bytes) => {
    expect(sniffContentType(bytes)).toBeNull();
  });
});
