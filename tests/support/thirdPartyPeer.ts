import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One request a fake third party received. */
export interface PeerCall {
  method: string;
  /** Path and query, e.g. /gtm.js?id=GTM-TEST01. */
  url: string;
  body: string;
  /** The caller's User-Agent: tells one browser context's calls from another's still in flight. */
  userAgent: string;
}

export interface ThirdPartyPeer {
  /** http://127.0.0.1:port or http://localhost:port (two peers on different hosts tell their traffic apart). */
  origin: string;
  calls: PeerCall[];
  /** The JSON bodies POSTed to `path`. */
  posted(path: string): unknown[];
  close(): Promise<void>;
}

/**
 * Stand-ins for the operator's third parties, served from this machine: Google's tag manager and
 * gtag.js, the CRM's tracker and chat widget. Each fake script reports back what the portal gave it
 * (the ids it configured, the chat's access key and subscriber context), so a test sees exactly what
 * left the browser. Every request is recorded.
 */
const SCRIPTS: Record<string, string> = {
  "/gtm.js": `window.__fakeGtmLoaded = true;`,
  // Like gtag.js: reads the dataLayer's "config" commands and sends one hit per measurement id.
  "/gtag/js": `(function () {
    var origin = new URL(document.currentScript.src).origin;
    (window.dataLayer || []).forEach(function (command) {
      if (command && command[0] === "config") fetch(origin + "/g/collect?tid=" + encodeURIComponent(command[1]), { method: "POST", mode: "no-cors" });
    });
  })();`,
  "/crm/tracker.js": `(function () {
    var origin = new URL(document.currentScript.src).origin;
    fetch(origin + "/crm/track", { method: "POST", mode: "no-cors", body: JSON.stringify(window.CrmTrackerConfig || null) });
  })();`,
  // The chat widget: reports its configuration, and opens a panel when asked.
  "/crm/chat.js": `(function () {
    var origin = new URL(document.currentScript.src).origin;
    fetch(origin + "/crm/received", { method: "POST", mode: "no-cors", body: JSON.stringify(window.CrmChatConfig || null) });
    window.CrmChat = {
      open: function () {
        var panel = document.getElementById("fake-crm-chat") || document.createElement("div");
        panel.id = "fake-crm-chat";
        panel.setAttribute("role", "dialog");
        panel.setAttribute("aria-label", "CRM chat");
        panel.textContent = "Chat with care";
        document.body.appendChild(panel);
        fetch(origin + "/crm/opened", { method: "POST", mode: "no-cors" });
      },
    };
  })();`,
};

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });

export async function startThirdPartyPeer(host: "127.0.0.1" | "localhost", port: number): Promise<ThirdPartyPeer> {
  const calls: PeerCall[] = [];
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await bodyOf(req);
    calls.push({ method: req.method ?? "GET", url: req.url ?? "/", body, userAgent: req.headers["user-agent"] ?? "" });
    const script = SCRIPTS[new URL(req.url ?? "/", "http://x").pathname];
    if (req.method === "GET" && script) {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      return res.end(script);
    }
    res.writeHead(req.method === "POST" ? 204 : 404, { "access-control-allow-origin": "*" });
    res.end();
  };
  const server: Server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://${host}:${port}`,
    calls,
    posted: (path) =>
      calls.filter((c) => c.method === "POST" && c.url === path).map((c) => JSON.parse(c.body || "null") as unknown),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
