import { gunzipSync, inflateSync } from "node:zlib";
import protobuf from "protobufjs";
import { otlpDescriptor } from "../../../proto/otlp-descriptor.generated.ts";
import type { Carrier } from "./types.ts";

// The repository's own OTLP descriptor (proto/), so the recorder decodes protobuf exactly as the server does.
const requestType = protobuf.Root.fromJSON(otlpDescriptor).lookupType(
  "opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest",
);

const OPERATION_KEYS = ["reprise.operation", "bitfab.operation"];
const PAYLOAD_KEYS = ["reprise.payload", "bitfab.payload"];

/** Undoes `Content-Encoding` (gzip, x-gzip, deflate); anything else is returned as is. */
export function decompress(raw: Buffer, encoding: string | undefined): Buffer {
  const kind = (encoding ?? "").trim().toLowerCase();
  if (kind === "gzip" || kind === "x-gzip") return gunzipSync(raw);
  if (kind === "deflate") return inflateSync(raw);
  return raw;
}

interface AnyValueJson {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface SpanView {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  statusCode: number;
  attributes: Array<{ key: string; value: AnyValueJson }>;
}
interface ResourceSpansView {
  resource: Record<string, unknown>;
  scopes: Array<{ name: string; spans: SpanView[] }>;
}

/** Decodes an OTLP/JSON `ExportTraceServiceRequest` into carriers. Throws when it is not one. */
export function decodeOtlpJson(body: Buffer): Carrier[] {
  const request = JSON.parse(body.toString("utf8")) as { resourceSpans?: any[] };
  if (!Array.isArray(request.resourceSpans)) throw new Error("resourceSpans is not a list");
  return toCarriers(
    request.resourceSpans.map((rs) => ({
      resource: attributesToRecord(rs.resource?.attributes ?? []),
      scopes: (rs.scopeSpans ?? []).map((ss: any) => ({
        name: ss.scope?.name ?? "",
        spans: (ss.spans ?? []).map((s: any) => ({
          traceId: String(s.traceId ?? ""),
          spanId: String(s.spanId ?? ""),
          parentSpanId: String(s.parentSpanId ?? ""),
          name: String(s.name ?? ""),
          statusCode: Number(s.status?.code ?? 0),
          attributes: s.attributes ?? [],
        })),
      })),
    })),
  );
}

/** Decodes an OTLP/protobuf `ExportTraceServiceRequest` into carriers. Throws when the bytes are not one. */
export function decodeOtlpProtobuf(body: Buffer): Carrier[] {
  const message = requestType.decode(body);
  const request = requestType.toObject(message, { longs: String, bytes: Buffer, defaults: false }) as any;
  const hex = (value: unknown) => (Buffer.isBuffer(value) ? value.toString("hex") : "");
  return toCarriers(
    (request.resourceSpans ?? []).map((rs: any) => ({
      resource: attributesToRecord(rs.resource?.attributes ?? []),
      scopes: (rs.scopeSpans ?? []).map((ss: any) => ({
        name: ss.scope?.name ?? "",
        spans: (ss.spans ?? []).map((s: any) => ({
          traceId: hex(s.traceId),
          spanId: hex(s.spanId),
          parentSpanId: hex(s.parentSpanId),
          name: String(s.name ?? ""),
          statusCode: Number(s.status?.code ?? 0),
          attributes: s.attributes ?? [],
        })),
      })),
    })),
  );
}

function toCarriers(resourceSpans: ResourceSpansView[]): Carrier[] {
  const carriers: Carrier[] = [];
  for (const rs of resourceSpans) {
    for (const scope of rs.scopes) {
      for (const span of scope.spans) {
        const attrs = attributesToRecord(span.attributes);
        const operation = OPERATION_KEYS.map((k) => attrs[k]).find((v) => typeof v === "string") as string | undefined;
        const payloadText = PAYLOAD_KEYS.map((k) => attrs[k]).find((v) => typeof v === "string") as string | undefined;
        if (operation === undefined || payloadText === undefined) continue;
        let payload: Record<string, any> = {};
        try {
          payload = JSON.parse(payloadText) as Record<string, any>;
        } catch {
          // kept as text only; scenarios that read the payload fail on it
        }
        carriers.push({
          operation,
          payload,
          payloadText,
          attributeKeys: span.attributes.map((a) => a.key),
          otelTraceId: span.traceId,
          otelSpanId: span.spanId,
          otelParentSpanId: span.parentSpanId,
          name: span.name,
          statusCode: span.statusCode,
          resource: rs.resource,
          scopeName: scope.name,
        });
      }
    }
  }
  return carriers;
}

function attributesToRecord(attributes: Array<{ key: string; value?: AnyValueJson }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes) {
    if (value === undefined || value === null) continue;
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}
