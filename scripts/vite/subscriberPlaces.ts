import { join } from "node:path";
import type { Plugin } from "vite";
import type { SubscriberPlaceEntry } from "../../src/resources/subscriberPlaceEntry";
import { loadDeclarations } from "./declarations.ts";

const MODULE_ID = "virtual:subscriber-places";
const RESOLVED = `\0${MODULE_ID}`;

/**
 * `virtual:subscriber-places`: what a subscriber destination's "More" needs of the declarations that
 * place a resource there (`subscriberPlace`), taken from them at build time: the name, the label and
 * its words, who may list it and for which kind of account. The light pages draw More from this (DestinationTasks) instead of
 * loading every declaration with zod on the phone: their evaluation was the longest task of those
 * pages (about 100 ms here, 0.4 s on a phone at 4x). A new declaration still appears by itself.
 */
export function subscriberPlaces(root: string = process.cwd(), registryFile = "src/resources/index.ts"): Plugin {
  return {
    name: "subscriber-places",
    resolveId: (id) => (id === MODULE_ID ? RESOLVED : undefined),
    async load(id) {
      if (id !== RESOLVED) return undefined;
      this.addWatchFile(join(root, registryFile));
      const entries: SubscriberPlaceEntry[] = (await loadDeclarations(root, registryFile)).flatMap((r) =>
        r.subscriberPlace
          ? [
              {
                name: r.name,
                place: r.subscriberPlace,
                label: r.label,
                labelWords: { en: r.messages?.en[r.label], es: r.messages?.es[r.label] },
                access: { list: r.access.list ?? {} },
                ...(r.subscriberAccountType ? { accountType: r.subscriberAccountType } : {}),
              },
            ]
          : [],
      );
      return `export default ${JSON.stringify(entries)};`;
    },
  };
}
