// How the server entry (server/main.ts) serves a door itself (docs/architecture.md, "How a request flows"): a
// route function built by defineRoute, called with a Request built from Node's request and answered on Node's
// response, without Next.js's router, request context and response piping in between. Under sustained
// ingestion those took about a tenth of the server's main thread (bench/README.md, "Session 10").
import type http from "node:http";
import { randomUUID } from "node:crypto";
import { AppError } from "../errors.ts";
import { logger } from "../logger.ts";
import { NODE_BODY, type TNodeBody } from "./body.ts";
import { errorResponse } from "./responses.ts";

/** A route function as defineRoute builds it (and app/**\/route.ts exports). */
export type TRouteFunction = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const NO_PARAMS = { params: Promise.resolve({}) };

/**
 * A Web Request of Node's request, its body left on Node's stream for the body reader (server/http/body.ts),
 * which reads at most `bodyLimit` bytes of it.
 */
export function toWebRequest(req: http.IncomingMessage, bodyLimit?: number): Request {
  // From Node's parsed headers, as the gate left them (the peer's address stamped, X-Forwarded-* dropped).
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
    else if (value) for (const item of value) headers.append(name, item);
  }
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, { method: req.method, headers });
  return bodyLimit === undefined ? request : Object.assign(request, { [NODE_BODY]: { stream: req, limit: bodyLimit } satisfies TNodeBody });
}

/** Writes a Web Response on Node's response; returns the body written. */
export async function writeWebResponse(response: Response, res: http.ServerResponse): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const bodiless = response.status === 204 || response.status === 304;
  if (!bodiless) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(bodiless ? undefined : body);
  return body;
}

/** Serves Node's request with a route function; a failure outside the route's own handling is a JSON 500. */
export async function serveRoute(route: TRouteFunction, bodyLimit: number, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let request: Request;
  try {
    request = toWebRequest(req, bodyLimit);
  } catch (error) {
    // A Host or header value the Fetch standard refuses (Node's parser is more lenient).
    const refusal = new AppError("bad_request", `The request's headers or address are not valid: ${(error as Error).message}`);
    await writeWebResponse(errorResponse(refusal, randomUUID()), res);
    return;
  }
  try {
    await writeWebResponse(await route(request, NO_PARAMS), res);
  } catch (error) {
    const requestId = randomUUID();
    logger.error("a door failed outside its route", { url: req.url, requestId, error: (error as Error).message });
    if (res.headersSent) res.destroy();
    else await writeWebResponse(errorResponse(new AppError("internal_error", "The request could not be served."), requestId), res);
  }
}
