// defineRoute: the one wrapper every /api/sdk/* handler goes through. It authenticates the API key,
// reads the body with the shared limits, parses body/query/params with zod, types the handler's body from
// its spec, and writes every error once, with the route's error encoder (docs/architecture.md "How a request flows").
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { authenticateApiKey } from "../auth/auth.service.ts";
import type { TAuthContext } from "../auth/auth.schemas.ts";
import { restActor } from "../auth/audit/actor.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import { assertAllowed, type TPermission } from "../auth/permissions.ts";
import { getDb, type Database } from "../db.ts";
import { AppError, toValidationIssues } from "../errors.ts";
import { assertInputText } from "../shared/input-text.ts";
import { parseJson, readBody, readBodyDeferred, type DeferredBody } from "./body.ts";
import { errorResponse, json, toAppError } from "./responses.ts";

export interface RouteContext<TBody, TQuery, TParams> {
  request: Request;
  requestId: string;
  db: Database;
  auth: TAuthContext;
  /** Who the audit log records a change of this request as: the key and its user. */
  actor: TAuditActor;
  body: TBody;
  query: TQuery;
  params: TParams;
}

/**
 * What a route reads its body as: a zod schema of the JSON body; "raw" for the decompressed bytes; "deferred"
 * for a DeferredBody the handler inflates itself (ingestion does so inside its memory budget).
 */
export type BodySpec = z.ZodType | "raw" | "deferred";

/** The handler's `body` for a body spec. */
export type BodyOf<B extends BodySpec | undefined> = B extends "deferred"
  ? DeferredBody
  : B extends "raw"
    ? Buffer
    : B extends z.ZodType
      ? z.output<B>
      : undefined;

/** Writes an error response in the route's response format (JSON by default; OTLP routes answer protobuf too). */
export type ErrorEncoder = (error: AppError, context: { request: Request; requestId: string }) => Response;

interface RouteOptions<B extends BodySpec | undefined, TQuery, TParams> {
  /**
   * What the caller must be allowed (server/auth/permissions.ts): checked against the key's scope and its user's
   * role right after the key, before the body is read. Required, so a new route cannot forget it.
   */
  permission: TPermission;
  body?: B;
  query?: z.ZodType<TQuery>;
  params?: z.ZodType<TParams>;
  /** How this route writes its errors (every error: auth, limits, validation, the handler's, 503). */
  errors?: ErrorEncoder;
  /**
   * Top-level body fields that are stored payloads with their own documented handling of NUL and unpaired
   * surrogates (U+FFFD): the edge checks only their depth (docs/api.md, "Text and nesting rules").
   */
  payloadFields?: readonly string[];
  /** Returns a plain object (sent as JSON 200) or a Response. */
  handler: (ctx: RouteContext<BodyOf<B>, TQuery, TParams>) => Promise<unknown>;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

export function defineRoute<B extends BodySpec | undefined = undefined, TQuery = undefined, TParams = undefined>(
  options: RouteOptions<B, TQuery, TParams>,
): TDefinedRoute {
  const encodeError = options.errors ?? jsonError;
  const route = async (request: Request, context: NextRouteContext): Promise<Response> => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    try {
      const db = await getDb();
      const auth = await authenticateApiKey(db, request.headers.get("authorization"));
      assertAllowed(auth, options.permission);
      const rawParams = (await context?.params) ?? {};
      assertInputText(rawParams, { where: "path" });
      const params = parseWith(options.params, rawParams, "path");
      const rawQuery = Object.fromEntries(new URL(request.url).searchParams);
      assertInputText(rawQuery, { where: "query" });
      const query = parseWith(options.query, rawQuery, "query");
      const body = (await readRequestBody(request, options.body, options.payloadFields)) as BodyOf<B>;
      const result = await options.handler({ request, requestId, db, auth, actor: restActor(auth), body, query, params });
      return result instanceof Response ? result : json(result ?? {});
    } catch (error) {
      return encodeError(toAppError(error, requestId), { request, requestId });
    }
  };
  const spec: RouteSpec = { permission: options.permission, body: options.body, query: options.query, params: options.params, payloadFields: options.payloadFields, errors: encodeError };
  return Object.assign(route, { spec });
}

/** What a route built by defineRoute reads (the bad-input catalogue test derives its cases from it). */
export interface RouteSpec {
  permission: TPermission;
  body?: BodySpec;
  query?: z.ZodType;
  params?: z.ZodType;
  payloadFields?: readonly string[];
  /** How the route writes its errors (the server entry writes its own refusals on a door with it too). */
  errors?: ErrorEncoder;
}

/** A route function built by defineRoute, with what it reads. */
export type TDefinedRoute = ((request: Request, context: NextRouteContext) => Promise<Response>) & { spec: RouteSpec };

/** The JSON error body every REST route answers with. */
export const jsonError: ErrorEncoder = (error, { requestId }) => errorResponse(error, requestId);

async function readRequestBody(request: Request, schema: BodySpec | undefined, payloadFields?: readonly string[]): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  if (schema === "deferred") return readBodyDeferred(request);
  if (schema === undefined) {
    // Still enforce encoding and size rules on bodies we ignore.
    await readBody(request);
    return undefined;
  }
  const raw = await readBody(request);
  if (schema === "raw") return raw;
  // No body at all reads as {}; a JSON null is a wrong type like any other.
  const parsed = parseJson(raw);
  const value = parsed === undefined ? {} : parsed;
  assertInputText(value, { where: "body", payloadFields });
  return parseWith(schema, value, "body");
}

/** Parses with zod; failure is a 400 listing every issue with its field path. */
export function parseWith<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = toValidationIssues(result.error.issues);
  const first = issues[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid";
  throw new AppError("validation_failed", `Invalid request ${where}: ${summary}`, { issues });
}
