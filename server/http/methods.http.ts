// The methods of one route file. Next.js answers a method a route.ts does not export with an empty 405
// and no Allow header; routeMethods answers every other method itself: the JSON error body with Allow
// (docs/api.md, "Errors"), and OPTIONS with the same Allow.
import { randomUUID } from "node:crypto";
import { AppError } from "../errors.ts";
import { errorResponse } from "./responses.ts";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** The methods a route file answers; the rest of HTTP's are refused with 405 by routeMethods. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type TRouteMethod = (typeof ROUTE_METHODS)[number];

export function allowHeader(methods: readonly string[]): string {
  const allowed = new Set(methods);
  if (allowed.has("GET")) allowed.add("HEAD");
  allowed.add("OPTIONS");
  return [...allowed].join(", ");
}

/** A JSON 405 naming the allowed methods. */
export function methodNotAllowed(request: Request, allow: string): Response {
  const requestId = request.headers.get("x-request-id") ?? randomUUID();
  const response = errorResponse(
    new AppError("method_not_allowed", `${request.method} is not allowed here; allowed: ${allow}.`),
    requestId,
  );
  response.headers.set("allow", allow);
  return response;
}

/** Every method a route.ts exports: its handlers, a JSON 405 for the others, and OPTIONS. */
export function routeMethods(handlers: Partial<Record<TRouteMethod, Handler>>): Record<TRouteMethod | "OPTIONS", Handler> {
  const allow = allowHeader(Object.keys(handlers));
  const refuse: Handler = Object.assign(async (request: Request) => methodNotAllowed(request, allow), { refusesMethod: true });
  const pick = (method: TRouteMethod) => handlers[method] ?? refuse;
  return {
    GET: pick("GET"),
    POST: pick("POST"),
    PUT: pick("PUT"),
    PATCH: pick("PATCH"),
    DELETE: pick("DELETE"),
    OPTIONS: async () => new Response(null, { status: 204, headers: { allow } }),
  };
}

/** Any path under /api that no route matches: the JSON 404 (app/api/[...path]/route.ts). */
export const unknownApiRoute: Handler = async (request) => {
  const requestId = request.headers.get("x-request-id") ?? randomUUID();
  const { pathname } = new URL(request.url);
  return errorResponse(new AppError("not_found", `No API route at ${pathname}.`), requestId);
};
