// One OpenTelemetry span as the native door reads it, whatever the encoding (OTLP/JSON or protobuf):
// ids as lowercase hex, times as ISO strings with microseconds, attributes as plain JSON values.
// Everything the request said about the span is kept here, so the mapping can be re-run later.
import type { TOtlpAnyValue, TOtlpKeyValue } from "../otlp-wire/otlp-request.ts";

export type TAttributes = Record<string, unknown>;

export interface TOtelEvent {
  name: string;
  time: string | null;
  attributes: TAttributes;
  /** Log records (the logs door) carry a body; span events do not. */
  body?: unknown;
}

export interface TOtelSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** The span's flags say its parent is in another process (an upstream service's span). */
  remoteParent: boolean;
  name: string;
  /** SpanKind number (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer). */
  kind: number;
  startTime: string | null;
  endTime: string | null;
  attributes: TAttributes;
  events: TOtelEvent[];
  links: Array<{ traceId: string; spanId: string; attributes: TAttributes }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string | null };
  resource: TAttributes;
  scope: { name: string | null; version: string | null };
}

/** An AnyValue as a plain value: kvlists become objects, bytes base64, int64 beyond 2^53 decimal text. */
export function anyValue(value: TOtlpAnyValue): unknown {
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return intOf(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) return value.arrayValue.map(anyValue);
  if ("kvlistValue" in value) return keyValues(value.kvlistValue);
  if ("bytesValue" in value) return typeof value.bytesValue === "string" ? value.bytesValue : Buffer.from(value.bytesValue).toString("base64");
  return null;
}

/** A list of OTLP KeyValue as an object; later duplicates win. Keys are kept as ordinary keys. */
export function keyValues(list: TOtlpKeyValue[]): TAttributes {
  const out: TAttributes = {};
  for (const kv of list) {
    Object.defineProperty(out, kv.key, { value: anyValue(kv.value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** int64 values: a number when exact, else the decimal text. */
function intOf(value: number | string): number | string | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (!/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

/** A trace or span id (decoded to lowercase hex) of the given length in bytes; empty or all-zero ids are invalid (null). */
export function validId(hex: string, bytes: 8 | 16): string | null {
  if (hex.length !== bytes * 2 || !/^[0-9a-f]+$/.test(hex) || /^0+$/.test(hex)) return null;
  return hex;
}

/** Nanoseconds since the epoch → ISO 8601 with microseconds; null when absent or past the year 9999. */
export function nanosToIso(nanos: bigint | null): string | null {
  if (nanos === null || nanos <= 0n) return null;
  const micros = nanos / 1000n;
  const ms = Number(micros / 1000n);
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  const fraction = String(micros % 1_000_000n).padStart(6, "0");
  return `${date.toISOString().slice(0, 19)}.${fraction}Z`;
}

/** OTLP span flags: bit 8 says whether the parent's remoteness is known, bit 9 that it is remote. */
export const hasRemoteParent = (flags: number): boolean => (flags & 0x300) === 0x300;
