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

/** The decoded shapes we read (protobufjs messages use camelCase field names). */
export interface PbAnyValue {
  /** The oneof's virtual field: the name of the member that is set ("stringValue", "intValue", …). */
  value?: string;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: unknown;
  doubleValue?: number;
  bytesValue?: Uint8Array;
  arrayValue?: { values?: PbAnyValue[] };
  kvlistValue?: { values?: PbKeyValue[] };
}
export interface PbKeyValue {
  key?: string;
  value?: PbAnyValue;
}
export interface PbSpan {
  name?: string;
  attributes?: PbKeyValue[];
}
export interface PbExportTraceServiceRequest {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: PbSpan[] }> }>;
}

/** Decodes a request body; throws (protobufjs's error) when the bytes are not an ExportTraceServiceRequest. */
export function decodeExportRequest(bytes: Uint8Array): PbExportTraceServiceRequest {
  return requestType.decode(bytes) as unknown as PbExportTraceServiceRequest;
}

/**
 * Decodes a request to plain objects (the native OpenTelemetry door reads every field): 64-bit integers
 * as decimal strings, enums as numbers, bytes as Uint8Array, only the fields present on the wire.
 */
export function decodeExportRequestObject(bytes: Uint8Array): Record<string, unknown> {
  const message = requestType.decode(bytes);
  return requestType.toObject(message, { longs: String, enums: Number, defaults: false, arrays: false, oneofs: false });
}

/** Encodes a request (tests and the benchmark build protobuf bodies with it). */
export function encodeExportRequest(request: PbExportTraceServiceRequest): Uint8Array {
  return requestType.encode(requestType.fromObject(request as Record<string, unknown>)).finish();
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

/** Decodes an OTLP logs request to plain objects, as decodeExportRequestObject does for traces. */
export function decodeExportLogsRequestObject(bytes: Uint8Array): Record<string, unknown> {
  const message = logsRequestType.decode(bytes);
  return logsRequestType.toObject(message, { longs: String, enums: Number, defaults: false, arrays: false, oneofs: false });
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
