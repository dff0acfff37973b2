// OTLP responses in the request's encoding (STYLE.md; decisions.md, Errors): ExportTraceServiceResponse
// for success and partial success, google.rpc.Status for errors of protobuf requests.
import { encodeExportResponse, encodeStatus } from "../../../proto/otlp.ts";
import { json } from "../../http/responses.ts";

export type TOtlpFormat = "json" | "protobuf";

const PROTOBUF_TYPES = ["application/x-protobuf", "application/protobuf"];

/** Protobuf when the Content-Type says so; everything else is read as OTLP/JSON. */
export function otlpFormatOf(contentType: string | null): TOtlpFormat {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return PROTOBUF_TYPES.includes(type) ? "protobuf" : "json";
}

const MAX_REASONS = 10;
const MAX_REASON_LENGTH = 300;

/** "2 carrier(s) rejected: <location>: <reason>; …" (the OTLP partialSuccess.errorMessage). */
export function summarizeRejections(reasons: string[], what = "carrier(s)"): string {
  const shown = reasons.slice(0, MAX_REASONS).map((r) => (r.length > MAX_REASON_LENGTH ? `${r.slice(0, MAX_REASON_LENGTH)}…` : r));
  const more = reasons.length > MAX_REASONS ? `; and ${reasons.length - MAX_REASONS} more` : "";
  return `${reasons.length} ${what} rejected: ${shown.join("; ")}${more}`;
}

export function exportResponse(format: TOtlpFormat, reasons: string[], traceIds: Record<string, string> | undefined, what?: string): Response {
  const partialSuccess = reasons.length > 0 ? { rejectedSpans: reasons.length, errorMessage: summarizeRejections(reasons, what) } : undefined;
  if (format === "protobuf") {
    return new Response(new Uint8Array(encodeExportResponse(partialSuccess)), {
      headers: { "content-type": "application/x-protobuf" },
    });
  }
  // Full success is `{}` plus Reprise's traceIds map (wire-facts §6.4).
  return json({ ...(partialSuccess ? { partialSuccess } : {}), ...(traceIds ? { traceIds } : {}) });
}

/** gRPC status codes OTLP/HTTP clients expect in a google.rpc.Status error body. */
function grpcCode(httpStatus: number): number {
  if (httpStatus === 401) return 16; // UNAUTHENTICATED
  if (httpStatus === 403) return 7; // PERMISSION_DENIED
  if (httpStatus === 404) return 5; // NOT_FOUND
  if (httpStatus === 413 || httpStatus === 429) return 8; // RESOURCE_EXHAUSTED
  if (httpStatus === 503) return 14; // UNAVAILABLE
  if (httpStatus >= 500) return 13; // INTERNAL
  return 3; // INVALID_ARGUMENT
}

/**
 * Wraps the OTLP route so that its error responses (including auth, body-limit and 503 errors raised
 * before the handler runs) come back as protobuf Status bodies when the request was protobuf.
 */
export function withOtlpErrorEncoding<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    const response = await handler(request, context);
    if (response.status < 400 || otlpFormatOf(request.headers.get("content-type")) !== "protobuf") return response;
    const body = (await response.json().catch(() => ({}))) as { error?: string; code?: string };
    const headers = new Headers(response.headers);
    headers.set("content-type", "application/x-protobuf");
    const message = `${body.error ?? response.statusText}${body.code ? ` (${body.code})` : ""}`;
    return new Response(new Uint8Array(encodeStatus(grpcCode(response.status), message)), { status: response.status, headers });
  };
}
