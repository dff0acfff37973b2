// defineRoute: the one wrapper every /api/sdk/* handler goes through. It authenticates the API key,
// reads the body with the shared limits, parses body/query/params with zod, and maps errors.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { authenticateApiKey } from "../auth/auth.service.ts";
import type { TAuthContext } from "../auth/auth.schemas.ts";
import { getDb, type Database } from "../db.ts";
import { AppError, toValidationIssues } from "../errors.ts";
import { parseJson, readBody, readBodyDeferred } from "./body.ts";
import { errorResponse, json } from "./responses.ts";

export interface RouteContext<TBody, TQuery, TParams> {
  request: Request;
  requestId: string;
  db: Database;
  auth: TAuthContext;
  body: TBody;
  query: TQuery;
  params: TParams;
}

interface RouteOptions<TBody, TQuery, TParams> {
  /**
   * zod schema of the JSON body; "raw" hands the decompressed bytes to the handler instead; "deferred"
   * hands over a DeferredBody the handler inflates itself (ingestion does so inside its memory budget).
   */
  body?: z.ZodType<TBody> | "raw" | "deferred";
  query?: z.ZodType<TQuery>;
  params?: z.ZodType<TParams>;
  /** Returns a plain object (sent as JSON 200) or a Response. */
  handler: (ctx: RouteContext<TBody, TQuery, TParams>) => Promise<unknown>;
}

type NextRouteContext = { params: Promise<Record<string, string | string[]>> };

export function defineRoute<TBody = undefined, TQuery = undefined, TParams = undefined>(
  options: RouteOptions<TBody, TQuery, TParams>,
): (request: Request, context: NextRouteContext) => Promise<Response> {
  return async (request, context) => {
    const requestId = request.headers.get("x-request-id") ?? randomUUID();
    try {
      const db = await getDb();
      const auth = await authenticateApiKey(db, request.headers.get("authorization"));
      const params = parseWith(options.params, (await context?.params) ?? {}, "path");
      const query = parseWith(options.query, Object.fromEntries(new URL(request.url).searchParams), "query");
      const body = await readRequestBody(request, options.body);
      const result = await options.handler({ request, requestId, db, auth, body, query, params } as RouteContext<TBody, TQuery, TParams>);
      return result instanceof Response ? result : json(result ?? {});
    } catch (error) {
      return errorResponse(error, requestId);
    }
  };
}

async function readRequestBody<TBody>(request: Request, schema: z.ZodType<TBody> | "raw" | "deferred" | undefined): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  if (schema === "deferred") return readBodyDeferred(request);
  if (schema === undefined) {
    // Still enforce encoding and size rules on bodies we ignore.
    await readBody(request);
    return undefined;
  }
  const raw = await readBody(request);
  if (schema === "raw") return raw;
  return parseWith(schema, parseJson(raw) ?? {}, "body");
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
