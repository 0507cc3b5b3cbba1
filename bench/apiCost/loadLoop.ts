import { Agent, request } from "node:http";

export interface LoadResult {
  requests: number;
  /** Answers that were not 200 (each also counted in requests). */
  failures: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Keeps `connections` keep-alive connections busy with the same GET for `durationMs`: each
 * connection sends its next request when the previous answer has fully arrived (closed loop, like
 * autocannon). Counts answers, those that were not 200, and their latencies.
 */
export async function runLoad(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  connections: number;
  durationMs: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + options.durationMs;

  const once = () =>
    new Promise<void>((resolve, reject) => {
      const sent = performance.now();
      const req = request(
        { host: "127.0.0.1", port: options.port, path: options.path, headers: options.headers, agent },
        (res) => {
          if (res.statusCode !== 200) failures++;
          res.on("data", () => {});
          res.on("end", () => {
            latencies.push(performance.now() - sent);
            resolve();
          });
        },
      );
      req.on("error", reject);
      req.end();
    });

  const connection = async () => {
    while (performance.now() < deadline) await once();
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  const elapsed = performance.now() - started;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    requests: latencies.length,
    failures,
    reqPerSec: Math.round((latencies.length / elapsed) * 1000),
    p50Ms: +at(0.5).toFixed(2),
    p99Ms: +at(0.99).toFixed(2),
  };
}
