// The server entry's request handling (docs/architecture.md, "How a request flows"): one Node HTTP server per
// process. Every request passes the gate (server/http/gate.ts); a door (server/doors.ts) is served here by its
// route function; everything else goes to Next.js's request handler. Until start-up is done (the database
// reached and migrated, Next.js prepared) this answers everything itself: health and the APIs a 503 with
// Retry-After, the console a waiting page. Every error is written through the one table (server/errors.ts), in
// the format of the surface it answers: JSON, the door's own encoder (OTLP protobuf), or tRPC's shape.
import http from "node:http";
import type { Duplex } from "node:stream";
import { randomUUID } from "node:crypto";
import { AppError } from "./errors.ts";
import { findDoor, type TDoor } from "./doors.ts";
import { GATE_METHODS, gateProblem, routerStateProblem, stampPeer } from "./http/gate.ts";
import { routeMethods } from "./http/methods.http.ts";
import { serveRoute, toWebRequest, writeWebResponse, type TRouteFunction } from "./http/node-bridge.ts";
import { DB_UNAVAILABLE_RETRY_AFTER_S, errorBody, errorResponse, json } from "./http/responses.ts";
import { jsonError } from "./http/define-route.ts";
import { getPasswordCheckBudget } from "./auth/sessions/password-budget.ts";
import { trpcErrorBody } from "./trpc/error-shape.ts";
import { waitingPage } from "./waiting-page.ts";

export type TNextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** What start-up is doing while the server waits: reaching the database, or finding it not there. */
export type TDatabaseWait = "connecting" | "unreachable";

export interface TAppServer {
  server: http.Server;
  /** Start-up found the database not there (health says so until it is). */
  databaseUnreachable(): void;
  /** Start-up is done: requests go to their door or to Next.js from now on. */
  ready(next: TNextHandler): void;
}

/** Paths whose answers are JSON (the APIs, MCP, the OpenTelemetry doors); the rest is the console. */
const isApiPath = (url: string) => /^\/(api|mcp|v1)(\/|\?|$)/.test(url);

/** Routes of each door by method: the door's own, a JSON 405 with Allow for the others, and OPTIONS. */
const doorRoutes = new WeakMap<TDoor, Record<string, TRouteFunction>>();
function doorRoute(door: TDoor, method: string): TRouteFunction {
  let routes = doorRoutes.get(door);
  if (!routes) doorRoutes.set(door, (routes = routeMethods(door.methods)));
  return routes[method === "HEAD" ? "GET" : method] ?? routes.GET!;
}

export function createAppServer(options: { trustProxy: boolean }): TAppServer {
  let next: TNextHandler | null = null;
  let database: TDatabaseWait = "connecting";

  const server = http.createServer((req, res) => {
    closeIfBodyUnread(req, res);
    stampPeer(req, options.trustProxy);
    res.setHeader("x-content-type-options", "nosniff");
    const url = req.url ?? "/";
    const problem = gateProblem(req.method ?? "", url) ?? routerStateProblem(req.headers);
    if (problem) {
      const [status, code, message] = problem;
      return void writeError(req, res, new AppError(code, message), status === 405 ? { allow: GATE_METHODS.join(", ") } : {});
    }
    const door = findDoor(url);
    if (!next) return void answerStarting(req, res, url, door, database);
    if (door) return void serveRoute(doorRoute(door, req.method ?? ""), door.bodyLimit, req, res);
    if (refuseSignIn(req, res)) return;
    void next(req, res);
  });
  server.on("clientError", answerClientError);
  return {
    server,
    databaseUnreachable: () => void (database = "unreachable"),
    ready: (handler) => void (next = handler),
  };
}

/**
 * An answer written before its request's body has arrived to its end closes the connection: the rest of the
 * body would otherwise be read as the next request, or stall the connection (a 413 on a chunked body, a 401
 * before the body is read). The response says `Connection: close` and Node closes the socket after it.
 */
function closeIfBodyUnread(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.headers["transfer-encoding"] === undefined && !(Number(req.headers["content-length"]) > 0)) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    if (!req.complete) this.shouldKeepAlive = false;
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/** Writes an error in the format of the surface the request addressed. */
function writeError(req: http.IncomingMessage, res: http.ServerResponse, error: AppError, headers: Record<string, string> = {}, door?: TDoor): Promise<unknown> {
  const requestId = randomUUID();
  let response: Response;
  if (door) {
    const request = toWebRequest(req);
    const encode = Object.values(door.methods)[0]?.spec.errors ?? jsonError;
    response = encode(error, { request, requestId });
  } else if ((req.url ?? "").startsWith("/api/trpc/")) {
    response = json(trpcErrorBody(error, req.url ?? ""), { status: error.httpStatus, headers: error.retryAfter ? { "retry-after": String(error.retryAfter) } : {} });
  } else {
    response = errorResponse(error, requestId);
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  req.resume();
  return writeWebResponse(response, res).catch(() => res.destroy());
}

/** While start-up waits for the database: health says so, the APIs answer 503 with Retry-After, the console a waiting page. */
function answerStarting(req: http.IncomingMessage, res: http.ServerResponse, url: string, door: TDoor | undefined, database: TDatabaseWait): void {
  const retryAfter = String(DB_UNAVAILABLE_RETRY_AFTER_S);
  if (/^\/api\/health(\?|$)/.test(url)) {
    req.resume();
    void writeWebResponse(json({ status: "starting", database }, { status: 503, headers: { "retry-after": retryAfter } }), res);
    return;
  }
  if (door || isApiPath(url)) {
    const error = new AppError("service_unavailable", "Reprise is starting: it is waiting for its database. Retry later.", { retryAfter: DB_UNAVAILABLE_RETRY_AFTER_S });
    void writeError(req, res, error, {}, door);
    return;
  }
  req.resume();
  const page = waitingPage(database);
  res.writeHead(503, {
    "content-type": "text/html; charset=utf-8",
    "retry-after": retryAfter,
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "content-length": String(Buffer.byteLength(page)),
  });
  res.end(req.method === "HEAD" ? undefined : page);
}

/** Refusals held back at once; past this they are answered immediately, so held sockets stay bounded. */
const MAX_DELAYED = 512;
let delayed = 0;

/**
 * Sign-in while every password check is taken: refused before Next.js spends anything on it, a second late,
 * which slows clients retrying at once without costing CPU (docs/api/console.md, "Sign-in limits").
 */
function refuseSignIn(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST" || !req.url?.startsWith("/api/trpc/") || !req.url.includes("session.signIn")) return false;
  if (!getPasswordCheckBudget().saturated) return false;
  const error = new AppError("rate_limited", "Too many sign-ins at once. Try again in a second.", { retryAfter: 1 });
  const send = () => void writeError(req, res, error);
  if (delayed >= MAX_DELAYED) send();
  else {
    delayed++;
    setTimeout(() => {
      delayed--;
      send();
    }, 1_000).unref();
  }
  return true;
}

/** What Node's HTTP parser refused, in our error table's terms. */
function parserRefusal(code: string | undefined): AppError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new AppError("headers_too_large", "The request line and headers exceed 16 KB (a URL this long is refused too).");
    case "HPE_INVALID_METHOD":
      return new AppError("method_not_allowed", "The request's method is not one this server answers.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new AppError("request_timeout", "The request did not arrive in time.");
    default:
      return new AppError("bad_request", `The request is not valid HTTP/1.1 (${code ?? "unparsable"}).`);
  }
}

/**
 * A request Node's parser refused before the app saw it (an unknown method, a URL or headers over 16 KB):
 * answered with the JSON error body instead of Node's empty one, then the connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node's own handler: never write into a response already under way, nor to a socket that is gone.
  const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent || error.code === "ECONNRESET") return void socket.destroy();
  const refusal = parserRefusal(error.code);
  const body = JSON.stringify(errorBody(refusal));
  const allow = refusal.code === "method_not_allowed" ? `Allow: ${GATE_METHODS.join(", ")}\r\n` : "";
  socket.end(
    `HTTP/1.1 ${refusal.httpStatus} ${http.STATUS_CODES[refusal.httpStatus]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${allow}Connection: close\r\n\r\n${body}`,
  );
}
