// An OTLP export request as both OTLP doors read it, whatever its encoding (docs/otel.md, "The endpoints";
// docs/api/ingestion.md, "OTLP"): decode-otlp.ts turns OTLP/JSON and OTLP/protobuf bodies into these
// shapes once, so the carrier door and the native door never see which encoding was sent. Ids are
// lowercase hex ("" when absent), 64-bit times are bigints (null when absent or unreadable), enums are
// numbers. Nothing here is validated beyond the envelope: a door decides what a malformed id means for it.

/** An AnyValue: the one member that was set (an empty object when none was). */
export type TOtlpAnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  /** A number, or the decimal text of an int64 (protobuf values beyond 2^53 are text, so they stay exact). */
  | { intValue: number | string }
  | { doubleValue: number }
  | { arrayValue: TOtlpAnyValue[] }
  | { kvlistValue: TOtlpKeyValue[] }
  /** Bytes in protobuf; the base64 text as sent in OTLP/JSON. */
  | { bytesValue: Uint8Array | string }
  | { [member: string]: never };

export interface TOtlpKeyValue {
  key: string;
  value: TOtlpAnyValue;
}

export interface TOtlpEvent {
  name: string;
  timeUnixNano: bigint | null;
  attributes: TOtlpKeyValue[];
}

export interface TOtlpLink {
  traceId: string;
  spanId: string;
  attributes: TOtlpKeyValue[];
}

export interface TOtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  /** W3C trace flags and, in bits 8 and 9, whether the parent is remote. */
  flags: number;
  name: string;
  /** SpanKind number (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  startTimeUnixNano: bigint | null;
  endTimeUnixNano: bigint | null;
  attributes: TOtlpKeyValue[];
  events: TOtlpEvent[];
  links: TOtlpLink[];
  /** code: 0 unset, 1 ok, 2 error; message "" when absent. */
  status: { code: number; message: string };
}

export interface TOtlpScope {
  name: string;
  version: string;
}

export interface TOtlpTracesRequest {
  resourceSpans: Array<{ resource: TOtlpKeyValue[]; scopeSpans: Array<{ scope: TOtlpScope; spans: TOtlpSpan[] }> }>;
}

export interface TOtlpLogRecord {
  /** "" when absent. */
  eventName: string;
  timeUnixNano: bigint | null;
  observedTimeUnixNano: bigint | null;
  traceId: string;
  spanId: string;
  attributes: TOtlpKeyValue[];
  /** undefined when the record has no body. */
  body: TOtlpAnyValue | undefined;
}

export interface TOtlpLogsRequest {
  resourceLogs: Array<{ scopeLogs: Array<{ logRecords: TOtlpLogRecord[] }> }>;
}

/** `resourceSpans[i].scopeSpans[j].spans[k]`: where an item sits in its request, for messages. */
export const spanLocation = (i: number, j: number, k: number) => `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
export const logRecordLocation = (i: number, j: number, k: number) => `resourceLogs[${i}].scopeLogs[${j}].logRecords[${k}]`;
