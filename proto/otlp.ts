// OTLP protobuf codec for the ingestion endpoint (docs/api/ingestion.md, "OTLP").
// The message types come from the generated descriptor of our .proto files (generate.ts), so nothing
// here reads files at run time.
import protobuf from "protobufjs";
import { otlpDescriptor } from "./otlp-descriptor.generated.ts";

const root = protobuf.Root.fromJSON(otlpDescriptor);
const requestType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const responseType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");
const statusType = root.lookupType("google.rpc.Status");
const logsRequestType = root.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest");
const logsResponseType = root.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse");

/**
 * The decoded messages (protobufjs messages use camelCase field names). Unset scalar fields read as their
 * proto3 defaults (on the prototype), unset message fields as null, unset repeated fields as [].
 */
export interface PbAnyValue {
  /** The oneof's virtual field: the name of the member that is set ("stringValue", "intValue", …). */
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  /** int64: a Long (protobufjs's 64-bit integer) or a number. */
  intValue?: PbLong | number;
  doubleValue?: number;
  bytesValue?: Uint8Array;
  arrayValue?: { values?: PbAnyValue[] } | null;
  kvlistValue?: { values?: PbKeyValue[] } | null;
}
export interface PbKeyValue {
  key?: string;
  value?: PbAnyValue | null;
}
/** protobufjs's Long: the two 32-bit halves of a 64-bit integer. */
export interface PbLong {
  low: number;
  high: number;
  unsigned: boolean;
}
type PbInt64 = PbLong | number;
export interface PbScope {
  name?: string;
  version?: string;
}
export interface PbEvent {
  timeUnixNano?: PbInt64;
  name?: string;
  attributes?: PbKeyValue[];
}
export interface PbLink {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  attributes?: PbKeyValue[];
}
export interface PbSpan {
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  parentSpanId?: Uint8Array;
  flags?: number;
  name?: string;
  kind?: number;
  startTimeUnixNano?: PbInt64;
  endTimeUnixNano?: PbInt64;
  attributes?: PbKeyValue[];
  events?: PbEvent[];
  links?: PbLink[];
  status?: { message?: string; code?: number } | null;
}
export interface PbExportTraceServiceRequest {
  resourceSpans?: Array<{ resource?: { attributes?: PbKeyValue[] } | null; scopeSpans?: Array<{ scope?: PbScope | null; spans?: PbSpan[] }> }>;
}
export interface PbLogRecord {
  timeUnixNano?: PbInt64;
  observedTimeUnixNano?: PbInt64;
  body?: PbAnyValue | null;
  attributes?: PbKeyValue[];
  traceId?: Uint8Array;
  spanId?: Uint8Array;
  eventName?: string;
}
export interface PbExportLogsServiceRequest {
  resourceLogs?: Array<{ scopeLogs?: Array<{ logRecords?: PbLogRecord[] }> }>;
}

/**
 * Decodes a traces request body to protobufjs messages, the one protobuf decoder of the server: both OTLP
 * doors read its output through server/ingest/otlp-wire. Throws (protobufjs's error) when the bytes are not
 * an ExportTraceServiceRequest.
 */
export function decodeExportRequest(bytes: Uint8Array): PbExportTraceServiceRequest {
  return requestType.decode(bytes) as unknown as PbExportTraceServiceRequest;
}

/** Decodes a logs request body, as decodeExportRequest does for traces. */
export function decodeExportLogsRequest(bytes: Uint8Array): PbExportLogsServiceRequest {
  return logsRequestType.decode(bytes) as unknown as PbExportLogsServiceRequest;
}

/** Encodes a request (tests and the benchmark build protobuf bodies with it). */
export function encodeExportRequest(request: Record<string, unknown>): Uint8Array {
  return requestType.encode(requestType.fromObject(request)).finish();
}

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** Full success is the empty message; a rejection count makes it a partial success. */
export function encodeExportResponse(partialSuccess?: PartialSuccess): Uint8Array {
  const message = partialSuccess ? { partialSuccess } : {};
  return responseType.encode(responseType.fromObject(message)).finish();
}

export function decodeExportResponse(bytes: Uint8Array): { partialSuccess?: { rejectedSpans: number; errorMessage: string } } {
  return responseType.toObject(responseType.decode(bytes), { longs: Number, defaults: false }) as never;
}

/** google.rpc.Status: the OTLP/HTTP error body for protobuf requests. */
export function encodeStatus(code: number, message: string): Uint8Array {
  return statusType.encode(statusType.fromObject({ code, message })).finish();
}

export function decodeStatus(bytes: Uint8Array): { code?: number; message?: string } {
  return statusType.toObject(statusType.decode(bytes)) as { code?: number; message?: string };
}

/** Encodes a logs request (tests). */
export function encodeExportLogsRequest(request: Record<string, unknown>): Uint8Array {
  return logsRequestType.encode(logsRequestType.fromObject(request)).finish();
}

/** ExportLogsServiceResponse: empty on full success. */
export function encodeExportLogsResponse(partialSuccess?: { rejectedLogRecords: number; errorMessage: string }): Uint8Array {
  return logsResponseType.encode(logsResponseType.fromObject(partialSuccess ? { partialSuccess } : {})).finish();
}

export function decodeExportLogsResponse(bytes: Uint8Array): { partialSuccess?: { rejectedLogRecords: number; errorMessage: string } } {
  return logsResponseType.toObject(logsResponseType.decode(bytes), { longs: Number, defaults: false }) as never;
}
