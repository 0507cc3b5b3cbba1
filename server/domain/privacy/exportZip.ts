import { strToU8, zipSync, type Zippable } from "fflate";
import { RETAINED_BY_LAW } from "#resources/privacyRequests";
import { recordsToCsv } from "#resources/csv";
import type { Row } from "./collect";

const README = (generatedAt: string, tables: string[]) => `Your data at the portal, exported ${generatedAt}.

Every table is here twice: <table>.json (exact values) and <table>.csv (for a spreadsheet).
Uploaded files are in files/. Amounts are in minor units (cents) with their currency.
Secrets are never exported: SIM PUKs and port-out PIN hashes stay sealed.

Tables: ${tables.join(", ")}.

If you ask to close your account and delete your data, the portal deletes your profile, contact
details, preferences, notifications, uploaded files, requests and messages, and closes your account
and lines. What the law makes us keep is kept:
${RETAINED_BY_LAW.map((r) => `- ${r}`).join("\n")}
`;

/** The data export: JSON and CSV per table, the uploaded files, and a README that says what is kept by law. */
export function buildExportZip(
  tables: Record<string, Row[]>,
  files: { name: string; bytes: Uint8Array }[],
  generatedAt = new Date(),
): Uint8Array {
  const entries: Zippable = {};
  const names = Object.keys(tables).sort();
  entries["README.txt"] = strToU8(README(generatedAt.toISOString(), names));
  entries["retention.json"] = strToU8(JSON.stringify({ keptByLaw: RETAINED_BY_LAW }, null, 2));
  for (const name of names) {
    const rows = tables[name]!;
    entries[`${name}.json`] = strToU8(JSON.stringify(rows, (_key, value: unknown) => value, 2));
    entries[`${name}.csv`] = strToU8(recordsToCsv(rows)); // the one CSV writer: formulas neutralized
  }
  for (const file of files) entries[`files/${file.name}`] = [file.bytes, { level: 0 }];
  return zipSync(entries, { level: 6, mtime: generatedAt });
}
