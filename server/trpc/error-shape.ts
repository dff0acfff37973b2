// The error shape of the console's tRPC calls, from the ONE table of server/errors.ts: tRPC's errorFormatter
// (init.ts) fills it for errors raised in procedures, and the server entry writes it for a call it refuses
// before tRPC runs (sign-in while every password check is taken).
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import type { AppError, TrpcErrorCode, ValidationIssue } from "../errors.ts";

/** The `data` of a tRPC error, as the console's client reads it. */
export interface TTrpcErrorData {
  code: TrpcErrorCode | string;
  httpStatus: number;
  path: string | null | undefined;
  appCode: string | null;
  retryAfter: number | null;
  issues: ValidationIssue[] | null;
  /** What the REST error body carries beside the message, e.g. `existingId` on a conflict with an existing record. */
  fields: Record<string, string> | null;
}

export function trpcErrorData(code: TrpcErrorCode | string, httpStatus: number, path: string | null | undefined, cause: AppError | undefined, issues?: ValidationIssue[]): TTrpcErrorData {
  return { code, httpStatus, path, appCode: cause?.code ?? null, retryAfter: cause?.retryAfter ?? null, issues: issues ?? null, fields: cause?.fields ?? null };
}

/**
 * The response body of a tRPC request refused as a whole with `error`: one error per call of a batch
 * (`/api/trpc/a,b?batch=1`), each under superjson's `json` key.
 */
export function trpcErrorBody(error: AppError, url: string): unknown {
  const [pathPart, query = ""] = url.slice(url.indexOf("/api/trpc/") + "/api/trpc/".length).split("?");
  const paths = (pathPart ?? "").split(",");
  const one = (path: string) => ({
    error: {
      json: {
        message: error.message,
        code: TRPC_ERROR_CODES_BY_KEY[error.trpcCode],
        data: trpcErrorData(error.trpcCode, error.httpStatus, path, error, error.issues),
      },
    },
  });
  return new URLSearchParams(query).get("batch") === "1" ? paths.map(one) : one(paths[0] ?? "");
}
