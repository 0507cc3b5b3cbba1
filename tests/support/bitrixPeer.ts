import { createServer, type Server } from "node:http";
import { freePort } from "./freePort";

/** A crm.lead.add call as Bitrix24 received it. */
export interface BitrixCall {
  path: string;
  fields: Record<string, unknown>;
}

export interface BitrixPeer {
  /** The inbound webhook base the backend is configured with (carries a fake secret, like the real one). */
  webhookUrl: string;
  calls: BitrixCall[];
  /** "ok": answers {result: <new lead id>}; "fail": answers 503 with a Bitrix error. */
  mode: "ok" | "fail";
  close(): Promise<void>;
}

/** A local stand-in for a Bitrix24 portal's REST webhook: records every crm.lead.add and fails on demand. */
export async function startBitrixPeer(): Promise<BitrixPeer> {
  const port = await freePort();
  let nextLeadId = 1000;
  const peer: BitrixPeer = {
    webhookUrl: `http://127.0.0.1:${port}/rest/7/s3cr3t-webhook/`,
    calls: [],
    mode: "ok",
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { fields?: Record<string, unknown> };
      peer.calls.push({ path: req.url ?? "", fields: body.fields ?? {} });
      res.setHeader("content-type", "application/json");
      if (req.url !== "/rest/7/s3cr3t-webhook/crm.lead.add.json") {
        res.statusCode = 404;
        return res.end(JSON.stringify({ error: "ERROR_METHOD_NOT_FOUND", error_description: "Method not found!" }));
      }
      if (peer.mode === "fail") {
        res.statusCode = 503;
        return res.end(JSON.stringify({ error: "QUERY_LIMIT_EXCEEDED", error_description: "Too many requests" }));
      }
      res.end(JSON.stringify({ result: ++nextLeadId, time: {} }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return peer;
}
