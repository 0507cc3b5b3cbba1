import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { checkKey, type FileStore } from "./fileStore";

/** The local default: one file per key under `root`, written to a temporary name then renamed (never half a file). */
export function createDiskFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, checkKey(key));
  return {
    kind: "disk",
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomUUID()}.part`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** A disk store in a fresh temporary folder, removed when `owner` closes (apps built without a configured store: tests). */
export async function createTemporaryDiskFileStore(owner: {
  addHook(name: "onClose", hook: () => Promise<void>): unknown;
}): Promise<FileStore> {
  const { mkdtemp } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const folder = await mkdtemp(join(tmpdir(), "portal-files-"));
  owner.addHook("onClose", async () => rm(folder, { recursive: true, force: true }));
  return createDiskFileStore(folder);
}
