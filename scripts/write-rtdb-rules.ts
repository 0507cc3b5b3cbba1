import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resources } from "../src/resources/index.ts";
import { rtdbRules } from "../src/providers/rtdb/rtdbRules.ts";

/** Writes database.rules.json (Realtime Database security rules and indexes) from the resource registry. */
const target = fileURLToPath(new URL("../database.rules.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(rtdbRules(resources), null, 2)}\n`);
console.log(`wrote ${target}`);
