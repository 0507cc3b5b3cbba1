import { request } from "node:http";

export interface RawRequest {
  method: string;
  /** Path and query exactly as they go on the request line (already encoded, or deliberately not). */
  target: string;
  headers: Record<string, string | string[]>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** A text/event-stream response: it passed once its headers arrived; its body was not awaited. */
  streaming: boolean;
  ms: number;
}

/**
 * One HTTP request over its own connection, with node:http so that malformed paths, odd headers and
 * any body go out as given (fetch would normalize or refuse them). Rejects when no complete answer
 * arrives within `deadlineMs`; a server-sent event stream counts as answered once its headers arrive.
 */
export function sendRaw(port: number, req: RawRequest, deadlineMs: number): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(response!);
    };
    // A body always goes with its length: without one, node:http sends a GET's body unframed, which is not HTTP.
    const headers =
      req.body === undefined ? req.headers : { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) };
    const outgoing = request(
      { host: "127.0.0.1", port, method: req.method, path: req.target, headers, agent: false },
      (res) => {
        const base = { status: res.statusCode ?? 0, headers: res.headers };
        if (String(res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          finish(null, { ...base, body: "", streaming: true, ms: performance.now() - started });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          finish(null, {
            ...base,
            body: Buffer.concat(chunks).toString("utf8"),
            streaming: false,
            ms: performance.now() - started,
          }),
        );
        res.on("error", (error) => finish(error));
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish(new Error(`no complete response within ${deadlineMs} ms`));
    }, deadlineMs);
    // A server may answer (413, 415) and close before it read all of a large body: the answer counts.
    outgoing.on("error", (error) => finish(error));
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
  });
}
