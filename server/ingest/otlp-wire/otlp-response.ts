// OTLP responses in the request's encoding (docs/api/ingestion.md, "OTLP"; docs/api.md, "Common rules"):
// ExportTraceServiceResponse for success and partial success, google.rpc.Status for errors of protobuf requests.
import { encodeExportResponse, encodeStatus } from "../../../proto/otlp.ts";
import { jsonError, type ErrorEncoder } from "../../http/define-route.ts";
import { errorHeaders, json } from "../../http/responses.ts";

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

/**
 * The carrier door's word on spans that are not carriers: they are ignored, not rejected, so OTLP's
 * partialSuccess carries it as a warning (rejectedSpans stays the rejected carriers' count, 0 when
 * none; OTLP allows an errorMessage beside a 0 count). It names the door plain spans belong to.
 */
export function ignoredSpansNote(ignored: number): string {
  return (
    `${ignored} span(s) ignored: not Reprise carriers (no reprise.operation and reprise.payload attributes). ` +
    "This door, /api/sdk/otel/v1/traces, takes the Reprise SDKs' carriers only; send OpenTelemetry spans " +
    "(GenAI, OpenInference, OpenLLMetry, AI SDK or any other) to the native door, POST /v1/traces on this " +
    "server (an OTLP exporter's or Collector's otlphttp endpoint is the server's base URL; docs/otel.md)"
  );
}

/** The partialSuccess of an export: rejected items with their reasons, and any notes (warnings). */
export function partialSuccessOf(reasons: string[], notes: string[], what?: string) {
  if (reasons.length === 0 && notes.length === 0) return undefined;
  const message = [...(reasons.length > 0 ? [summarizeRejections(reasons, what)] : []), ...notes].join(". ");
  return { rejectedSpans: reasons.length, errorMessage: message };
}

export function exportResponse(format: TOtlpFormat, reasons: string[], traceIds: Record<string, string> | undefined, what?: string, notes: string[] = []): Response {
  const partialSuccess = partialSuccessOf(reasons, notes, what);
  if (format === "protobuf") {
    return new Response(new Uint8Array(encodeExportResponse(partialSuccess)), {
      headers: { "content-type": "application/x-protobuf" },
    });
  }
  // Full success is `{}` plus Reprise's traceIds map (docs/api/ingestion.md, "OTLP").
  return json({ ...(partialSuccess ? { partialSuccess } : {}), ...(traceIds ? { traceIds } : {}) });
}

/**
 * The OTLP routes' error encoder: a google.rpc.Status body for a protobuf request, the JSON error body
 * otherwise. Every error of the route goes through it once (auth, body limits, 503, the handler's).
 */
export const otlpErrors: ErrorEncoder = (error, context) => {
  if (otlpFormatOf(context.request.headers.get("content-type")) !== "protobuf") return jsonError(error, context);
  const status = encodeStatus(error.grpcCode, `${error.message} (${error.code})`);
  return new Response(new Uint8Array(status), {
    status: error.httpStatus,
    headers: { ...errorHeaders(error, context.requestId), "content-type": "application/x-protobuf" },
  });
};
