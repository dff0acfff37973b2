// One error type and ONE table from code to HTTP status, tRPC code and the gRPC status code OTLP/HTTP clients
// read from a protobuf error body, used by every surface (two tables drift apart; docs/architecture.md
// "How a request flows").

export const ERROR_CODES = {
  bad_request: { http: 400, trpc: "BAD_REQUEST", grpc: 3 /* INVALID_ARGUMENT */ },
  validation_failed: { http: 400, trpc: "BAD_REQUEST", grpc: 3 /* INVALID_ARGUMENT */ },
  invalid_json: { http: 400, trpc: "PARSE_ERROR", grpc: 3 /* INVALID_ARGUMENT */ },
  invalid_body_encoding: { http: 400, trpc: "BAD_REQUEST", grpc: 3 /* INVALID_ARGUMENT */ },
  unauthorized: { http: 401, trpc: "UNAUTHORIZED", grpc: 16 /* UNAUTHENTICATED */ },
  forbidden: { http: 403, trpc: "FORBIDDEN", grpc: 7 /* PERMISSION_DENIED */ },
  not_found: { http: 404, trpc: "NOT_FOUND", grpc: 5 /* NOT_FOUND */ },
  method_not_allowed: { http: 405, trpc: "METHOD_NOT_SUPPORTED", grpc: 3 /* INVALID_ARGUMENT */ },
  conflict: { http: 409, trpc: "CONFLICT", grpc: 3 /* INVALID_ARGUMENT */ },
  payload_too_large: { http: 413, trpc: "PAYLOAD_TOO_LARGE", grpc: 8 /* RESOURCE_EXHAUSTED */ },
  unsupported_media_type: { http: 415, trpc: "UNSUPPORTED_MEDIA_TYPE", grpc: 3 /* INVALID_ARGUMENT */ },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS", grpc: 8 /* RESOURCE_EXHAUSTED */ },
  internal_error: { http: 500, trpc: "INTERNAL_SERVER_ERROR", grpc: 13 /* INTERNAL */ },
  service_unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE", grpc: 14 /* UNAVAILABLE */ },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type TrpcErrorCode = (typeof ERROR_CODES)[ErrorCode]["trpc"];

export interface ValidationIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: ValidationIssue[];
  /** Seconds; sent as Retry-After (429, 503). */
  readonly retryAfter?: number;
  /** Extra fields of the REST error body, e.g. the existing resource's id on a conflict (`existingId`). */
  readonly fields?: Record<string, string>;

  constructor(code: ErrorCode, message: string, details?: { issues?: ValidationIssue[]; retryAfter?: number; cause?: unknown; fields?: Record<string, string> }) {
    super(message, { cause: details?.cause });
    this.name = "AppError";
    this.code = code;
    this.issues = details?.issues;
    this.retryAfter = details?.retryAfter;
    this.fields = details?.fields;
  }

  get httpStatus(): number {
    return ERROR_CODES[this.code].http;
  }

  get trpcCode(): TrpcErrorCode {
    return ERROR_CODES[this.code].trpc;
  }

  /** The gRPC status code of a google.rpc.Status body (OTLP/HTTP protobuf errors). */
  get grpcCode(): number {
    return ERROR_CODES[this.code].grpc;
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
export const badRequest = (message: string) => new AppError("bad_request", message);

/** zod issues → our `issues` list (field path and message). */
export function toValidationIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): ValidationIssue[] {
  return issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/**
 * Error codes meaning "the database is not there right now": socket errors; PostgreSQL's connection exceptions
 * (class 08, matched below), "too many connections" and out-of-resources, a database that does not accept
 * connections (55000, `ALTER DATABASE … ALLOW_CONNECTIONS false`), administrator or crash shutdown and "cannot
 * connect now" (57P01–57P03), lock-not-available; Prisma's cannot-reach, timeouts, closed connection, pool
 * timeout and too-many-connections codes.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED",
  "55000", "57P01", "57P02", "57P03", "53300", "53000", "53200", "55P03",
  "P1001", "P1002", "P1008", "P1017", "P2024", "P2037",
]);
/** The same failures as Prisma's driver adapters name them. */
const DRIVER_ADAPTER_UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "TooManyConnections", "SocketTimeout"]);
/** The pg driver's own connection failures, which carry no code. */
const DRIVER_UNAVAILABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error|Connection ended unexpectedly/i;

/**
 * True for failures that mean "the database is unreachable, refusing connections or overloaded right now": the
 * client should retry later (503 + Retry-After on the APIs, the outage banner in the console), as opposed to a
 * bug (500). The one classification every surface uses (docs/api.md, "Common rules").
 * Walks the error's causes and the driver-adapter error Prisma wraps.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const { code, originalCode, kind, message, cause, meta } = e as Record<string, unknown>;
    for (const c of [code, originalCode]) {
      if (typeof c === "string" && (UNAVAILABLE_CODES.has(c) || /^08[0-9A-Z]{3}$/.test(c))) return true;
    }
    if (typeof kind === "string" && DRIVER_ADAPTER_UNAVAILABLE_KINDS.has(kind)) return true;
    if (typeof message === "string" && DRIVER_UNAVAILABLE_MESSAGE.test(message)) return true;
    queue.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
}

/** Prisma's codes for a value the database refused (too long, invalid, out of range, malformed). */
const PRISMA_DATA_CODES = new Set(["P2000", "P2006", "P2007", "P2019", "P2020", "P2023"]);
/** The same failures as Prisma's driver adapters name them. */
const DRIVER_ADAPTER_DATA_KINDS = new Set(["InvalidInputValue", "ValueOutOfRange", "LengthMismatch"]);

/**
 * The database's message when it refused a value (SQLSTATE class 22, "data exception": invalid text, numeric
 * out of range, malformed uuid, …), or null. Such failures are the client's input, so a 400, never a 500.
 */
export function databaseDataError(error: unknown): string | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const { code, originalCode, originalMessage, kind, message, cause, meta } = e as Record<string, unknown>;
    const refused =
      [code, originalCode].some((c) => typeof c === "string" && (/^22[0-9A-Z]{3}$/.test(c) || PRISMA_DATA_CODES.has(c))) ||
      (typeof kind === "string" && DRIVER_ADAPTER_DATA_KINDS.has(kind));
    if (refused) {
      const text = typeof originalMessage === "string" ? originalMessage : typeof message === "string" ? message : "";
      return text.trim().split("\n").at(-1)?.trim() || "invalid value";
    }
    queue.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return null;
}
