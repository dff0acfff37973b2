// The request gate: runs in the server process on every request before Next.js sees it (installed by
// instrumentation.ts through startup.ts), for what must not depend on a client's word or that Next.js
// would answer with HTML:
//  - stamps the socket's address (client-address.ts) and, unless REPRISE_TRUST_PROXY, drops X-Forwarded-*;
//  - refuses methods no route answers (TRACE, CONNECT, PROPFIND, …) with the JSON 405 and Allow;
//  - refuses /api paths that are not valid percent-encoded UTF-8 or hold a "." or ".." segment (Next.js
//    would normalise them onto another route) with the JSON 400 (docs/api.md, "Common rules");
//  - answers what the caller's `refuse` refuses (sign-in while the password checks are saturated) before
//    Next.js spends anything on it, after a delay that slows clients retrying at once;
//  - serves what the caller's `direct` names itself, without Next.js (ingestion's OTLP doors,
//    server/http/direct-route.ts).
import http from "node:http";
import { PEER_ADDRESS_HEADER } from "./client-address.ts";

const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const INSTALLED = Symbol.for("reprise.requestGate");

/** "::ffff:192.0.2.1" and "192.0.2.1" are one client. */
const normalizeAddress = (address: string) => (address.startsWith("::ffff:") ? address.slice(7) : address);

/** What is wrong with a request's method or /api path, as [status, code, message], or null. */
export function gateProblem(method: string, rawUrl: string): [number, string, string] | null {
  if (!METHODS.includes(method)) return [405, "method_not_allowed", `${method} is not supported.`];
  const rawPath = rawUrl.split("?")[0] ?? "";
  if (!/^\/api(\/|$)/i.test(rawPath)) return null;
  let segments: string[];
  try {
    segments = rawPath.split("/").map((s) => decodeURIComponent(s));
  } catch {
    return [400, "bad_request", "The request path is not valid percent-encoded UTF-8."];
  }
  if (segments.some((s) => s === "." || s === ".." || s.includes("\u0000"))) {
    return [400, "bad_request", "A path segment must not be '.' or '..' or hold a NUL character."];
  }
  return null;
}

/** A refusal decided by the caller (sign-in while the password-check budget is full): answered after `delayMs`. */
export interface GateRefusal {
  status: number;
  /** The JSON body, in the format of the surface refused. */
  body: unknown;
  retryAfter: number;
  /** Answer after this long (a client that retries at once is slowed down without costing CPU). */
  delayMs: number;
}

/** Refusals held back at once; past this they are answered immediately, so held sockets stay bounded. */
const MAX_DELAYED = 512;
let delayed = 0;

function answer(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", ...headers });
  res.end(JSON.stringify(body));
  req.resume();
}

/** A request the gate serves itself, without Next.js (server/http/direct-route.ts). */
export type DirectHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Installs the gate on every HTTP server of this process (once). */
export function installRequestGate(
  trustProxy: boolean,
  refuse: (req: http.IncomingMessage) => GateRefusal | null = () => null,
  direct: (req: http.IncomingMessage) => DirectHandler | null = () => null,
): void {
  const proto = http.Server.prototype as unknown as { emit: (event: string, ...args: unknown[]) => boolean; [INSTALLED]?: boolean };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      req.headers[PEER_ADDRESS_HEADER] = normalizeAddress(req.socket?.remoteAddress ?? "unknown");
      if (!trustProxy) for (const name of FORWARDED) delete req.headers[name];
      const problem = gateProblem(req.method ?? "", req.url ?? "/");
      if (problem) {
        const [status, code, error] = problem;
        answer(req, res, status, { error, code }, status === 405 ? { allow: METHODS.join(", ") } : {});
        return true;
      }
      const refusal = refuse(req);
      if (refusal) {
        const send = () => answer(req, res, refusal.status, refusal.body, { "retry-after": String(refusal.retryAfter) });
        if (delayed >= MAX_DELAYED) send();
        else {
          delayed++;
          setTimeout(() => {
            delayed--;
            send();
          }, refusal.delayMs).unref();
        }
        return true;
      }
      const handler = direct(req);
      if (handler) {
        void handler(req, res);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  };
}
