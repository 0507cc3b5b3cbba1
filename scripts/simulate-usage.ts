// Demo traffic (issue 10): sends usage records of the demo subscribers' lines to a running backend
// through the ingest API, once a second, so meters move while you watch. Ctrl-C stops it.
//
//   npm run simulate:usage                       (after npm start)
//   BACKEND_URL=http://127.0.0.1:8080 INGEST_API_KEY=local-ingest-key OPERATOR=ATT INTERVAL_MS=1000 \
//   NUMBERS=+12025550101,+12025550102,+12025550103 DATA_MB=40 npm run simulate:usage
import { randomUUID } from "node:crypto";
import { LOCAL_INGEST_KEY } from "../server/auth/serviceKeys";

const backend = (process.env.BACKEND_URL ?? "http://127.0.0.1:8080").replace(/\/$/, "");
const key = process.env.INGEST_API_KEY ?? LOCAL_INGEST_KEY;
const operator = process.env.OPERATOR ?? "ATT";
const intervalMs = Number(process.env.INTERVAL_MS ?? 1000);
const numbers = (process.env.NUMBERS ?? "+12025550101,+12025550102,+12025550103")
  .split(",")
  .map((n) => n.trim())
  .filter(Boolean);
/** Average MB of one data record: 40 MB a second moves a 15 GB meter by a visible step every few seconds. */
const dataMb = Number(process.env.DATA_MB ?? 40);

function tick() {
  const startedAt = new Date().toISOString();
  return numbers.flatMap((msisdn) => {
    const records = [
      {
        id: `sim-${randomUUID()}`,
        msisdn,
        type: "data",
        startedAt,
        quantity: Math.max(1, Math.round(dataMb * (0.5 + Math.random()))),
      },
    ];
    if (Math.random() < 0.3)
      records.push({
        id: `sim-${randomUUID()}`,
        msisdn,
        type: "voice",
        startedAt,
        quantity: 30 + Math.round(Math.random() * 240),
      });
    if (Math.random() < 0.3) records.push({ id: `sim-${randomUUID()}`, msisdn, type: "sms", startedAt, quantity: 1 });
    return records;
  });
}

let stopped = false;
process.once("SIGINT", () => (stopped = true));
process.once("SIGTERM", () => (stopped = true));
console.log(`Sending usage of ${numbers.join(", ")} to ${backend} every ${intervalMs} ms (Ctrl-C stops)`);
let total = 0;
while (!stopped) {
  const records = tick();
  try {
    const res = await fetch(`${backend}/api/v1/usage-records/batch`, {
      method: "POST",
      headers: { authorization: `ApiKey ${key}`, "x-operator": operator, "content-type": "application/json" },
      body: JSON.stringify({ records }),
    });
    const body = (await res.json()) as { counted?: number; unknownLines?: unknown[]; detail?: string };
    if (!res.ok) console.error(`refused (${res.status}): ${body.detail}`);
    else {
      total += body.counted ?? 0;
      process.stdout.write(
        `\rcounted ${total} records${body.unknownLines?.length ? ` (${body.unknownLines.length} of unknown numbers)` : ""}   `,
      );
    }
  } catch (error) {
    console.error(`backend not reachable at ${backend}: ${(error as Error).message}`);
  }
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
console.log("\nstopped");
