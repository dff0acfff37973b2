// The request gate: checks the server entry (server/main.ts) makes on every request before a door or Next.js
// sees it, for what must not depend on a client's word or that Next.js would answer with HTML or a 500:
//  - stamps the socket's address (client-address.ts) and, unless REPRISE_TRUST_PROXY, drops X-Forwarded-*;
//  - refuses methods no route answers (TRACE, CONNECT, PROPFIND, …) with the JSON 405 and Allow;
//  - refuses /api paths that are not valid percent-encoded UTF-8 or hold a "." or ".." segment (Next.js
//    would normalise them onto another route) with the JSON 400 (docs/api.md, "Common rules");
//  - refuses a Next.js router-state header Next.js could not parse (it answers those with a 500 on every
//    console page) with the JSON 400.
import type http from "node:http";
import { PEER_ADDRESS_HEADER } from "./client-address.ts";

const FORWARDED = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-real-ip", "forwarded"];
export const GATE_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** "::ffff:192.0.2.1" and "192.0.2.1" are one client. */
const normalizeAddress = (address: string) => (address.startsWith("::ffff:") ? address.slice(7) : address);

/** Writes the socket's address over anything the client sent and, unless proxies are trusted, drops X-Forwarded-*. */
export function stampPeer(req: http.IncomingMessage, trustProxy: boolean): void {
  req.headers[PEER_ADDRESS_HEADER] = normalizeAddress(req.socket?.remoteAddress ?? "unknown");
  if (!trustProxy) for (const name of FORWARDED) delete req.headers[name];
}

/** A refusal as [status, code, message]. */
export type TGateProblem = [number, "method_not_allowed" | "bad_request", string];

/** What is wrong with a request's method or /api path, or null. */
export function gateProblem(method: string, rawUrl: string): TGateProblem | null {
  if (!GATE_METHODS.includes(method)) return [405, "method_not_allowed", `${method} is not supported.`];
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

/** Next.js's own cap on the router-state header. */
const MAX_ROUTER_STATE_CHARS = 40_000;
const PARAM_TYPES = new Set(["c", "ci", "oc", "d", "di"]);
const REFETCH_MARKERS = new Set(["refetch", "refresh", "inside-shared-layout", "metadata-only"]);

/** Next.js's router state: [segment, {parallel route: state}, url?, refetch marker?, is root layout?]. */
function isRouterState(value: unknown, depth = 0): boolean {
  if (!Array.isArray(value) || value.length < 2 || value.length > 5 || depth > 200) return false;
  const [segment, children, url, marker, root] = value as unknown[];
  const segmentOk =
    typeof segment === "string" ||
    (Array.isArray(segment) && segment.length === 3 && typeof segment[0] === "string" && typeof segment[1] === "string" && PARAM_TYPES.has(segment[2]));
  if (!segmentOk || typeof children !== "object" || children === null || Array.isArray(children)) return false;
  if (!(url === undefined || url === null || typeof url === "string")) return false;
  if (!(marker === undefined || marker === null || REFETCH_MARKERS.has(marker as string))) return false;
  if (!(root === undefined || typeof root === "boolean")) return false;
  return Object.values(children).every((child) => isRouterState(child, depth + 1));
}

/**
 * A `Next-Router-State-Tree` header Next.js would fail to parse (it answers a 500 for those), as a 400; null
 * when the header is absent or well formed. The checks are Next.js's own (its flightRouterStateSchema).
 */
export function routerStateProblem(headers: http.IncomingHttpHeaders): TGateProblem | null {
  const value = headers["next-router-state-tree"];
  if (value === undefined) return null;
  const refuse = (why: string): TGateProblem => [400, "bad_request", `The Next-Router-State-Tree header ${why}.`];
  if (typeof value !== "string") return refuse("was sent more than once");
  if (value.length > MAX_ROUTER_STATE_CHARS) return refuse("is too large");
  try {
    if (isRouterState(JSON.parse(decodeURIComponent(value)))) return null;
  } catch {
    /* not percent-encoded JSON */
  }
  return refuse("is not a router state this app sent");
}
