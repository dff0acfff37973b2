// One OpenTelemetry span as the native door reads it, whatever the encoding (OTLP/JSON or protobuf):
// ids as lowercase hex, times as ISO strings with microseconds, attributes as plain JSON values.
// Everything the request said about the span is kept here, so the mapping can be re-run later.

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

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** An OTLP AnyValue (JSON or decoded protobuf) as a plain value: kvlists become objects, bytes base64. */
export function anyValue(value: unknown): unknown {
  if (!isObject(value)) return null;
  const v = value;
  const pick = (camel: string, snake: string) => (v[camel] !== undefined ? v[camel] : v[snake]);
  const s = pick("stringValue", "string_value");
  if (s !== undefined && s !== null) return String(s);
  const b = pick("boolValue", "bool_value");
  if (b !== undefined && b !== null) return b === true || b === "true";
  const i = pick("intValue", "int_value");
  if (i !== undefined && i !== null) return intOf(i);
  const d = pick("doubleValue", "double_value");
  if (d !== undefined && d !== null) return typeof d === "number" ? d : Number(d);
  const a = pick("arrayValue", "array_value");
  if (isObject(a)) return (Array.isArray(a.values) ? a.values : []).map(anyValue);
  const kv = pick("kvlistValue", "kvlist_value");
  if (isObject(kv)) return keyValues(kv.values);
  const bytes = pick("bytesValue", "bytes_value");
  if (bytes instanceof Uint8Array) return Buffer.from(bytes).toString("base64");
  if (typeof bytes === "string") return bytes;
  return null;
}

/** A list of OTLP KeyValue as an object; later duplicates win. Keys are kept as ordinary keys. */
export function keyValues(list: unknown): TAttributes {
  const out: TAttributes = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== "string") continue;
    Object.defineProperty(out, kv.key, { value: anyValue(kv.value), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** int64 values arrive as numbers or decimal strings: a number when exact, else the string. */
function intOf(value: unknown): number | string | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** Trace and span ids: hex in OTLP/JSON, bytes in protobuf. Empty or all-zero ids are invalid (null). */
export function hexId(value: unknown, bytes: 8 | 16): string | null {
  let hex: string | null = null;
  if (value instanceof Uint8Array) hex = Buffer.from(value).toString("hex");
  else if (typeof value === "string") hex = value.toLowerCase();
  if (hex === null || hex.length !== bytes * 2 || !/^[0-9a-f]+$/.test(hex) || /^0+$/.test(hex)) return null;
  return hex;
}

/** Nanoseconds since the epoch (number, decimal string or Long-like) → ISO 8601 with microseconds. */
export function nanosToIso(value: unknown): string | null {
  if (value === undefined || value === null || value === "" || value === 0 || value === "0") return null;
  let nanos: bigint;
  try {
    nanos = BigInt(typeof value === "number" ? Math.round(value) : String(value));
  } catch {
    return null;
  }
  if (nanos <= 0n) return null;
  const micros = nanos / 1000n;
  const ms = Number(micros / 1000n);
  const date = new Date(ms);
  if (!Number.isFinite(date.getTime()) || date.getUTCFullYear() > 9999) return null;
  const fraction = String(micros % 1_000_000n).padStart(6, "0");
  return `${date.toISOString().slice(0, 19)}.${fraction}Z`;
}

const KIND_NAMES = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"];
const STATUS_NAMES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

/** Enums arrive as numbers (protobuf, most JSON encoders) or as their names (some JSON encoders). */
export function enumOf(value: unknown, names: string[]): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string") {
    const i = names.indexOf(value);
    if (i >= 0) return i;
    if (/^\d+$/.test(value)) return Number(value);
  }
  return 0;
}

export const spanKindOf = (value: unknown) => enumOf(value, KIND_NAMES);
export const statusCodeOf = (value: unknown) => enumOf(value, STATUS_NAMES);

/** OTLP span flags: bit 8 says whether the parent's remoteness is known, bit 9 that it is remote. */
export function hasRemoteParent(flags: unknown): boolean {
  const n = typeof flags === "number" ? flags : typeof flags === "string" && /^\d+$/.test(flags) ? Number(flags) : 0;
  return (n & 0x300) === 0x300;
}
