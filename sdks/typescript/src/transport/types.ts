/** Carrier operations (docs/api/ingestion.md, "OTLP"). */
export type Operation = "external_span" | "external_trace" | "internal_trace";

/** Carrier span attribute naming the operation (docs/sdk-transport.md, rule 1). */
export const OPERATION_ATTRIBUTE = "reprise.operation";
/** Carrier span attribute holding the JSON-encoded payload (docs/sdk-transport.md, rule 1). */
export const PAYLOAD_ATTRIBUTE = "reprise.payload";

/** What the transport remembers about a carrier without re-reading its payload. */
export interface CarrierInfo {
  operation: Operation;
  /** SDK trace id (`sourceTraceId` / `externalTrace.id`). */
  traceId: string;
  /** SDK span id, for span carriers. */
  spanId?: string;
}

/** Summary of an OTLP response body. */
export interface ResponseSummary {
  /** A 2xx body with a string `error` is a rejection (docs/sdk-transport.md, "Responses"). */
  error?: string;
  rejectedSpans: number;
  errorMessage?: string;
  /** `{sourceTraceId: serverTraceId}` reported by Reprise's JSON responses (docs/sdk-transport.md, "Responses"). */
  traceIds?: Record<string, string>;
}
