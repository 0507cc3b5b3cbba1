import http, { type ClientRequest, type IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

// GET /api/v1/live over real HTTP (inject would buffer a never-ending response), as a browser's
// EventSource opens it (query credentials) or with headers.

export interface LiveEventData {
  resource: string;
  type: string;
  ids: string[];
  at: string;
}

export interface LiveStream {
  status: number;
  header(name: string): string;
  /** Everything received so far. */
  text(): string;
  /** The next `event: resource` (waits up to timeoutMs). */
  next(timeoutMs?: number): Promise<LiveEventData>;
  /** Problem body of a refused request. */
  problem(): Promise<{ status: number; detail: string; errors?: { path: string; message: string }[] }>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  close(): void;
}

/** Opens the stream like a browser would (query credentials), or with headers. */
export async function openLiveStream(
  base: string,
  resources: string,
  options: { token?: string; operator?: string; headers?: boolean } = {},
): Promise<LiveStream> {
  const token = options.token;
  const operator = options.operator ?? "ATT";
  const params = new URLSearchParams({ resources });
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (options.headers) {
    if (token) headers.authorization = `Bearer ${token}`;
    headers["x-operator"] = operator;
  } else {
    if (token) params.set("token", token);
    params.set("operator", operator);
  }
  // node:http rather than fetch: undici may leave an idle socket behind an aborted stream, which
  // keeps app.close() waiting.
  const { request, response } = await new Promise<{ request: ClientRequest; response: IncomingMessage }>(
    (resolve, reject) => {
      const request = http.get(`${base}/api/v1/live?${params}`, { headers, agent: false }, (response) =>
        resolve({ request, response }),
      );
      request.on("error", reject);
    },
  );
  let received = "";
  let cursor = 0;
  const waiters: (() => void)[] = [];
  response.setEncoding("utf8");
  response.on("data", (chunk: string) => {
    received += chunk;
    waiters.splice(0).forEach((wake) => wake());
  });
  response.on("error", () => {});
  const ended = new Promise<void>((resolve) => response.on("end", resolve));
  const stream: LiveStream = {
    status: response.statusCode!,
    header: (name) => String(response.headers[name] ?? ""),
    text: () => received,
    async next(timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const blocks = received.slice(cursor).split("\n\n");
        for (let i = 0; i < blocks.length - 1; i++) {
          cursor += blocks[i]!.length + 2;
          const lines = blocks[i]!.split("\n");
          if (!lines.includes("event: resource")) continue;
          const data = lines.find((line) => line.startsWith("data: "));
          return JSON.parse(data!.slice("data: ".length)) as LiveEventData;
        }
        const left = until - Date.now();
        if (left <= 0) throw new Error(`No live event within ${timeoutMs} ms; received: ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
    problem: async () => (await ended, JSON.parse(received) as Awaited<ReturnType<LiveStream["problem"]>>),
    ended,
    close: () => request.destroy(),
  };
  return stream;
}

/** Listens on a free port of 127.0.0.1 and gives the base URL. */
export async function listenOn(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
