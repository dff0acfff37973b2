// The OTLP/JSON form of an exported trace: one ExportTraceServiceRequest per line (the OpenTelemetry
// Collector's file format), each span a carrier (docs/api/ingestion.md, "OTLP") whose `reprise.payload` is the
// span payload as an SDK sends it, so any Reprise ingests the file at /api/sdk/otel/v1/traces and other OTLP
// tools see the spans' names, times, parents and errors. Labels do not travel in this form.
type TRow = Record<string, unknown>;

const hex = (uuid: unknown, chars: number) => String(uuid).replace(/-/g, "").slice(0, chars);

/** An ISO timestamp (PostgreSQL's, microseconds and an offset) as Unix nanoseconds, exactly. */
export function toUnixNanos(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? "";
  return (BigInt(Math.floor(ms / 1000)) * 1_000_000_000n + BigInt((fraction + "000000000").slice(0, 9))).toString();
}

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

function spanPayload(trace: TRow, span: TRow): TRow {
  return {
    type: span.payload_type,
    source: span.source ?? undefined,
    sdkVersion: span.sdk_version ?? undefined,
    sourceTraceId: span.source_trace_id,
    traceFunctionKey: span.trace_function_key ?? trace.trace_function_key ?? undefined,
    rootTraceFunctionKey: span.node_key ?? undefined,
    testRunId: span.test_run_id ?? undefined,
    mocked: span.mocked === true ? true : undefined,
    mockSource: span.mock_source ?? undefined,
    rawSpan: span.raw_span,
  };
}

function completionPayload(trace: TRow): TRow {
  const stored = trace.external_trace && typeof trace.external_trace === "object" ? (trace.external_trace as TRow) : {};
  return {
    type: "sdk-function",
    traceFunctionKey: trace.trace_function_key ?? undefined,
    completed: trace.status !== "pending",
    ...(trace.expected_span_count !== null ? { expectedSpanCount: trace.expected_span_count } : {}),
    externalTrace: { ...stored, id: trace.source_trace_id, metadata: trace.metadata, session_id: trace.session_id ?? undefined },
  };
}

export function toOtlpLine(line: { trace: TRow; spans: TRow[] }): string {
  const { trace } = line;
  const traceId = hex(trace.id, 32);
  const spans = line.spans.map((s) => ({
    traceId,
    spanId: hex(s.id, 16),
    ...(s.parent_span_id ? { parentSpanId: hex(s.parent_span_id, 16) } : {}),
    name: s.name,
    kind: 1,
    startTimeUnixNano: toUnixNanos(s.started_at) ?? toUnixNanos(s.created_at),
    endTimeUnixNano: toUnixNanos(s.ended_at) ?? toUnixNanos(s.started_at) ?? toUnixNanos(s.created_at),
    attributes: [attr("reprise.operation", "external_span"), attr("reprise.payload", JSON.stringify(spanPayload(trace, s)))],
    status: s.error ? { code: 2, message: String(s.error) } : { code: 0 },
  }));
  const at = toUnixNanos(trace.ended_at) ?? toUnixNanos(trace.started_at) ?? toUnixNanos(trace.created_at);
  spans.push({
    traceId,
    spanId: hex(trace.id, 16),
    name: "reprise.trace_completion",
    kind: 1,
    startTimeUnixNano: at,
    endTimeUnixNano: at,
    attributes: [attr("reprise.operation", "external_trace"), attr("reprise.payload", JSON.stringify(completionPayload(trace)))],
    status: { code: 0 },
  });
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [attr("service.name", "reprise-export")] }, scopeSpans: [{ scope: { name: "reprise.export", version: "1" }, spans }] }],
  });
}
