// JSON responses and the mapping of any thrown error to the error body (docs/api.md, "Common rules"):
// {"error": "<message>", "code": "<snake_case>", "issues"?: [...]}. 5xx bodies never leak internals.
import { AppError, databaseDataError, isDatabaseUnavailable } from "../errors.ts";
import { logger } from "../logger.ts";

/** Seconds clients should wait before retrying when the database is unavailable. */
export const DB_UNAVAILABLE_RETRY_AFTER_S = 5;

export function json(body: unknown, init?: ResponseInit): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", ...init?.headers },
  });
}

/** Turns any error into an AppError; unknown errors become internal_error (and are logged). */
export function toAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    logger.warn("database unavailable", { requestId, error });
    return new AppError("service_unavailable", "The database is unavailable; retry later.", {
      retryAfter: DB_UNAVAILABLE_RETRY_AFTER_S,
    });
  }
  const refused = databaseDataError(error);
  if (refused !== null) {
    logger.info("database refused a value", { requestId, error: refused });
    return new AppError("bad_request", `The database refused a value of the request: ${refused}`);
  }
  logger.error("unhandled error", { requestId, error });
  return new AppError("internal_error", `Internal server error (request id ${requestId}).`);
}

/** The headers of every error answer, whatever its format: the request id, and Retry-After when the error has one. */
export function errorHeaders(error: AppError, requestId: string): Record<string, string> {
  const headers: Record<string, string> = { "x-request-id": requestId };
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  return headers;
}

export function errorResponse(error: unknown, requestId: string): Response {
  const appError = toAppError(error, requestId);
  const headers = errorHeaders(appError, requestId);
  return json(
    { error: appError.message, code: appError.code, ...(appError.issues ? { issues: appError.issues } : {}), ...appError.fields },
    { status: appError.httpStatus, headers },
  );
}
