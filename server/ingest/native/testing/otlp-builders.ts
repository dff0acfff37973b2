// Builds OTLP/JSON and OTLP/protobuf ExportTraceServiceRequests from plain span descriptions (tests).
import { randomBytes } from "node:crypto";
import { encodeExportRequest } from "../../../../proto/otlp.ts";

export interface TestSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP span flags (0x300: the parent is remote). */
  flags?: number;
  name: string;
  kind?: number;
  attributes?: Record<string, unknown>;
  events?: Array<{ name: string; attributes?: Record<string, unknown>; timeMs?: number }>;
  status?: { code: number; message?: string };
  startMs?: number;
  endMs?: number;
}

export const traceIdHex = () => randomBytes(16).toString("hex");
export const spanIdHex = () => randomBytes(8).toString("hex");

export function anyValueJson(value: unknown): Record<string, unknown> {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValueJson) } };
  if (value && typeof value === "object") return { kvlistValue: { values: attributesJson(value as Record<string, unknown>) } };
  return {};
}

export const attributesJson = (attrs: Record<string, unknown> = {}) => Object.entries(attrs).map(([key, value]) => ({ key, value: anyValueJson(value) }));

const nanos = (ms: number) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;

export function otlpJsonRequest(spans: TestSpan[], resource: Record<string, unknown> = { "service.name": "test-service" }, scope = { name: "test-scope", version: "1.0.0" }) {
  const now = Date.now();
  return {
    resourceSpans: [
      {
        resource: { attributes: attributesJson(resource) },
        scopeSpans: [
          {
            scope,
            spans: spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              ...(s.flags !== undefined ? { flags: s.flags } : {}),
              name: s.name,
              kind: s.kind ?? 1,
              startTimeUnixNano: nanos(s.startMs ?? now),
              endTimeUnixNano: nanos(s.endMs ?? (s.startMs ?? now) + 5),
              attributes: attributesJson(s.attributes),
              events: (s.events ?? []).map((e) => ({ name: e.name, timeUnixNano: nanos(e.timeMs ?? now), attributes: attributesJson(e.attributes) })),
              status: s.status ?? { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}

/** The same request as protobuf bytes (ids as bytes, as the protobuf encoding has them). */
export function otlpProtobufRequest(spans: TestSpan[], resource?: Record<string, unknown>): Uint8Array {
  const json = otlpJsonRequest(spans, resource);
  const toBytes = (hex: string | undefined) => (hex ? Buffer.from(hex, "hex") : undefined);
  const convertValue = (v: Record<string, unknown>): Record<string, unknown> => {
    if ("intValue" in v) return { intValue: Number(v.intValue) };
    if ("arrayValue" in v) return { arrayValue: { values: (v.arrayValue as { values: Record<string, unknown>[] }).values.map(convertValue) } };
    if ("kvlistValue" in v) return { kvlistValue: { values: (v.kvlistValue as { values: Array<{ key: string; value: Record<string, unknown> }> }).values.map((kv) => ({ key: kv.key, value: convertValue(kv.value) })) } };
    return v;
  };
  const convertAttrs = (attrs: Array<{ key: string; value: Record<string, unknown> }>) => attrs.map((a) => ({ key: a.key, value: convertValue(a.value) }));
  const rs = json.resourceSpans[0];
  return encodeExportRequest({
    resourceSpans: [
      {
        resource: { attributes: convertAttrs(rs.resource.attributes) },
        scopeSpans: rs.scopeSpans.map((ss) => ({
          scope: ss.scope,
          spans: ss.spans.map((s) => ({
            ...s,
            traceId: toBytes(s.traceId),
            spanId: toBytes(s.spanId),
            parentSpanId: toBytes((s as { parentSpanId?: string }).parentSpanId),
            attributes: convertAttrs(s.attributes),
            events: s.events.map((e) => ({ ...e, attributes: convertAttrs(e.attributes) })),
          })),
        })),
      },
    ],
  } as never);
}
