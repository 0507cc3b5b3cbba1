import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";
import { loadDeclarations } from "./declarations.ts";

const MODULE_ID = "virtual:declared-icons";
const RESOLVED = `\0${MODULE_ID}`;

/**
 * `virtual:declared-icons`: exactly the @ant-design/icons that the resource declarations name, each
 * imported by its own path (never `import *`, which would ship all of them). A name antd does not
 * have fails the build, naming the resource: declarations may use any antd icon, and a typo is
 * caught before anyone sees a blank menu entry.
 */
export function declaredIcons(root: string = process.cwd(), registryFile = "src/resources/index.ts"): Plugin {
  const iconsDir = join(
    dirname(createRequire(join(root, "package.json")).resolve("@ant-design/icons/package.json")),
    "es",
    "icons",
  );
  return {
    name: "declared-icons",
    resolveId: (id) => (id === MODULE_ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      const registry = join(root, registryFile);
      this.addWatchFile(registry);
      const resources = await loadDeclarations(root, registryFile);
      const names = [...new Set(resources.map((r) => r.icon))].sort();
      const unknown = resources.filter(
        (r) => !/^[A-Z]\w+$/.test(r.icon) || !existsSync(join(iconsDir, `${r.icon}.js`)),
      );
      if (unknown.length)
        this.error(
          `No such @ant-design/icons icon: ${unknown.map((r) => `${r.name} declares '${r.icon}'`).join("; ")}`,
        );
      return [
        ...names.map((name) => `import ${name} from "@ant-design/icons/es/icons/${name}.js";`),
        `export default { ${names.join(", ")} };`,
      ].join("\n");
    },
  };
}
