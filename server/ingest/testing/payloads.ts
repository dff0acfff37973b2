// Payload builders for ingestion tests and the benchmark, shaped like the SDKs' bodies (docs/api/ingestion.md).
import { randomUUID } from "node:crypto";

export interface SpanOptions {
  traceId: string;
  spanId?: string;
  parentId?: string | null;
  name?: string;
  traceFunctionKey?: string;
  /** false = a start snapshot (no ended_at). */
  final?: boolean;
  startedAt?: string;
  endedAt?: string;
  input?: unknown;
  output?: unknown;
  error?: string;
  contexts?: unknown[];
  spanData?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export function spanPayload(o: SpanOptions): Record<string, unknown> {
  const spanId = o.spanId ?? randomUUID();
  return {
    type: "sdk-function",
    source: "typescript-sdk-function",
    sourceTraceId: o.traceId,
    traceFunctionKey: o.traceFunctionKey ?? "answer-question",
    sdkVersion: "0.1.0",
    rawSpan: {
      id: spanId,
      trace_id: o.traceId,
      ...(o.parentId ? { parent_id: o.parentId } : {}),
      started_at: o.startedAt ?? "2026-09-01T10:00:00.000120Z",
      ...(o.final === false ? {} : { ended_at: o.endedAt ?? "2026-09-01T10:00:01.250000Z" }),
      span_origin: { name: "reprise.sdk.typescript", version: "0.1.0", instrumentation: { name: "span" } },
      span_data: {
        name: o.name ?? "callModel",
        type: "llm",
        input: o.input ?? ["What is 2+2?"],
        output: o.output ?? { text: "4" },
        ...(o.error ? { error: o.error } : {}),
        ...(o.contexts ? { contexts: o.contexts } : {}),
        ...o.spanData,
      },
    },
    ...o.extra,
  };
}

export interface CompletionOptions {
  traceId: string;
  expectedSpanCount?: number;
  completed?: boolean;
  dropped?: boolean;
  traceFunctionKey?: string;
  externalTrace?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export function completionPayload(o: CompletionOptions): Record<string, unknown> {
  return {
    type: "sdk-function",
    source: "typescript-sdk-function",
    traceFunctionKey: o.traceFunctionKey ?? "answer-question",
    completed: o.completed ?? true,
    sdkVersion: "0.1.0",
    ...(o.expectedSpanCount !== undefined ? { expectedSpanCount: o.expectedSpanCount } : {}),
    ...(o.dropped ? { dropped: true } : {}),
    externalTrace: {
      id: o.traceId,
      started_at: "2026-09-01T10:00:00.000000Z",
      ended_at: "2026-09-01T10:00:02.000000Z",
      ...o.externalTrace,
    },
    ...o.extra,
  };
}

export interface CarrierSpec {
  operation: string;
  /** An object is JSON-encoded; a string is sent as is. */
  payload: unknown;
  /** Attribute prefix: reprise (default) or bitfab. */
  prefix?: "reprise" | "bitfab";
}

const hex = (bytes: number) => randomUUID().replace(/-/g, "").padEnd(32, "0").slice(0, bytes * 2);

/** One carrier span in OTLP/JSON form (docs/api/ingestion.md, "OTLP"). */
export function carrierSpanJson(c: CarrierSpec): Record<string, unknown> {
  const prefix = c.prefix ?? "reprise";
  return {
    traceId: hex(16),
    spanId: hex(8),
    name: "carrier",
    kind: 1,
    startTimeUnixNano: "1788256800000120000",
    endTimeUnixNano: "1788256801250000000",
    attributes: [
      { key: `${prefix}.operation`, value: { stringValue: c.operation } },
      { key: `${prefix}.payload`, value: { stringValue: typeof c.payload === "string" ? c.payload : JSON.stringify(c.payload) } },
    ],
    status: { code: 0 },
  };
}

/** An ExportTraceServiceRequest in OTLP/JSON form holding the given spans. */
export function otlpJsonRequest(spans: Record<string, unknown>[]): Record<string, unknown> {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "reprise-test" } }] },
        scopeSpans: [{ scope: { name: "reprise", version: "0.1.0" }, spans }],
      },
    ],
  };
}
