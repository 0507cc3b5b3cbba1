import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject, test } from "vitest";
import { attSeed, demoUsers } from "../../server/db/seed/demoData";
import { E2E_BACKEND_LOG_DIR } from "../support/backendLogs";

// Runs after every other e2e file (tests/support/lastFileSequencer.ts) and reads the logs of every
// backend the run started (tests/support/backendLogs.ts): they keep ids, routes and shapes, never a
// demo person's email, phone number or name, however it was written (issue 26, item 6).

const baseUrl = inject("baseUrl");
const POLL = { timeout: 30_000, interval: 200 };

/** A number as E.164, without its plus, as its ten digits, as the portal shows it and with dashes. */
function numberForms(e164: string): string[] {
  const d = e164.slice(2);
  return [
    e164,
    e164.slice(1),
    d,
    `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`,
    `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`,
  ];
}

/** Every demo person's email, number and name, as typed and as a URL carries them. */
function personalValues(): string[] {
  const values = new Set<string>();
  for (const user of demoUsers) [user.email, user.displayName].forEach((v) => values.add(v));
  for (const account of attSeed.accounts) {
    values.add(account.name);
    if (account.email) values.add(account.email);
    for (const number of [account.phone, ...account.lines.map((l) => l.msisdn)])
      if (number) numberForms(number).forEach((v) => values.add(v));
  }
  return [...new Set([...values].flatMap((v) => [v, encodeURIComponent(v), v.replaceAll(" ", "+")]))].map((v) =>
    v.toLowerCase(),
  );
}

const logFiles = () =>
  existsSync(E2E_BACKEND_LOG_DIR) ? readdirSync(E2E_BACKEND_LOG_DIR).filter((f) => f.endsWith(".log")) : [];

test("no backend of the run logged a demo person's email, phone number or name", async () => {
  // A request of our own, and its line in the suite backend's log: everything logged before it is on disk.
  const marker = `log-check-${randomUUID()}`;
  expect((await fetch(`${baseUrl}/api/health`, { headers: { "x-request-id": marker } })).status).toBe(200);
  await expect
    .poll(() => logFiles().some((f) => readFileSync(join(E2E_BACKEND_LOG_DIR, f), "utf8").includes(marker)), POLL)
    .toBe(true);

  const values = personalValues();
  const hits: string[] = [];
  let requests = 0;
  for (const file of logFiles()) {
    const lines = readFileSync(join(E2E_BACKEND_LOG_DIR, file), "utf8").split("\n");
    requests += lines.filter((line) => line.includes('"url":"/api/v1/')).length;
    for (const line of lines) {
      const lower = line.toLowerCase();
      const found = values.filter((v) => lower.includes(v));
      if (found.length && hits.length < 20) hits.push(`${file}: ${found.join(", ")} in ${line.slice(0, 400)}`);
    }
  }
  // The logs hold the run's API requests (at info level), so an empty log cannot pass.
  expect(requests).toBeGreaterThan(0);
  expect(hits).toEqual([]);
});
