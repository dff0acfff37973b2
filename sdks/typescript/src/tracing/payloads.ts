import { toJsonCompatible } from "../encoding/value-codec.js";
import type { CarrierRequest } from "../transport/transport.js";
import { SDK_ORIGIN_NAME, SDK_SOURCE, SDK_VERSION } from "../version.js";
import type { SpanState } from "./span-state.js";
import type { TraceState } from "./trace-state.js";
import { FRAMEWORK_SOURCES, type FrameworkInstrumentation } from "./types.js";

/** Builds the `external_span` carrier of a finished span (docs/api/ingestion.md, "Span payload"). */
export function buildSpanCarrier(trace: TraceState, span: SpanState): CarrierRequest {
  const payload: Record<string, unknown> = {
    type: "sdk-function",
    source: span.frameworkRecorded ? FRAMEWORK_SOURCES[span.instrumentation as FrameworkInstrumentation] : SDK_SOURCE,
    sourceTraceId: trace.id,
    traceFunctionKey: trace.traceFunctionKey,
    sdkVersion: SDK_VERSION,
    ...replayIds(trace),
    rawSpan: rawSpan(trace, span),
  };
  if (span.errors.length > 0) payload.errors = [...span.errors];
  if (span.mocked) Object.assign(payload, { mocked: true, mockTarget: "output", mockSource: "recorded" });
  return {
    operation: "external_span",
    payload,
    traceId: trace.id,
    spanId: span.id,
    name: span.name || trace.traceFunctionKey || "reprise.external_span",
    startTime: span.startedAt,
    endTime: span.endedAt ?? new Date(),
    isError: span.error !== undefined,
  };
}

function rawSpan(trace: TraceState, span: SpanState): Record<string, unknown> {
  const raw: Record<string, unknown> = { id: span.id, trace_id: trace.id };
  if (span.parentId !== undefined) raw.parent_id = span.parentId; // roots leave it out (docs/sdk-transport.md, "Payloads")
  raw.started_at = span.startedAt.toISOString();
  raw.ended_at = (span.endedAt ?? new Date()).toISOString();
  if (trace.replay) raw.input_source_span_id = trace.replay.inputSourceSpanId;
  raw.span_origin = { name: SDK_ORIGIN_NAME, version: SDK_VERSION, instrumentation: { name: span.instrumentation } };
  raw.span_data = spanData(span);
  return raw;
}

function spanData(span: SpanState): Record<string, unknown> {
  const data: Record<string, unknown> = { name: span.name, type: span.type };
  if (span.functionName) data.function_name = span.functionName;
  if (span.input) {
    data.input = span.input.json;
    if (span.input.meta) data.input_meta = span.input.meta;
  }
  if (span.output) {
    data.output = span.output.json;
    if (span.output.meta) data.output_meta = span.output.meta;
  }
  if (span.error !== undefined) data.error = span.error;
  if (span.contexts.length > 0) data.contexts = span.contexts.map(toJsonCompatible);
  if (span.prompt !== undefined) data.prompt = span.prompt;
  return data;
}

/**
 * Builds the `external_trace` completion carrier (docs/api/ingestion.md, "Trace completion"), sent once when the
 * outermost span ends.
 */
export function buildCompletionCarrier(trace: TraceState): CarrierRequest {
  const endedAt = trace.endedAt ?? new Date();
  const external: Record<string, unknown> = {
    id: trace.id,
    started_at: trace.startedAt.toISOString(),
    ended_at: endedAt.toISOString(),
    workflow_name: trace.traceFunctionKey,
    ingestion_type: trace.ingestionType,
  };
  if (trace.name !== undefined) external.name = trace.name;
  if (Object.keys(trace.metadata).length > 0) external.metadata = toJsonCompatible(trace.metadata);
  if (trace.contexts.length > 0) external.contexts = trace.contexts.map(toJsonCompatible);
  if (trace.replay) {
    external.input_source_trace_id = trace.replay.inputSourceTraceId;
    external.replay_attempt = trace.replay.attempt;
  }
  const payload: Record<string, unknown> = {
    id: trace.id,
    type: "sdk-function",
    source: SDK_SOURCE,
    traceFunctionKey: trace.traceFunctionKey,
    completed: true,
    sdkVersion: SDK_VERSION,
    ingestion_type: trace.ingestionType,
    ...replayIds(trace),
    externalTrace: external,
  };
  if (trace.name !== undefined) payload.name = trace.name;
  if (trace.sessionId !== undefined) payload.sessionId = trace.sessionId;
  if (trace.dropped) payload.dropped = true;
  else payload.expectedSpanCount = trace.sentSpans;
  return {
    operation: "external_trace",
    payload,
    traceId: trace.id,
    name: trace.traceFunctionKey || "reprise.external_trace",
    startTime: trace.startedAt,
    endTime: endedAt,
    isError: false,
  };
}

function replayIds(trace: TraceState): Record<string, string> {
  // Both names of the run id are sent (docs/sdk-transport.md, "Payloads").
  return trace.replay ? { testRunId: trace.replay.testRunId, experimentId: trace.replay.testRunId } : {};
}
