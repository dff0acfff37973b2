// Minimal row factories for tests that need traces and spans without going through ingestion.
// Prefer the real ingestion endpoints where the test is about behaviour that depends on ingestion.
import type { Database } from "../server/db/client.ts";
import { newId } from "../server/ids.ts";

export interface TraceOverrides {
  id?: string;
  name?: string | null;
  traceFunctionKey?: string;
  status?: "pending" | "completed" | "failed";
  ingestionType?: "captured" | "seeded";
  /** null: a trace whose start is not known yet. */
  startedAt?: Date | null;
  endedAt?: Date | null;
  testRunId?: string | null;
  originalTraceId?: string | null;
  replayAttempt?: number | null;
  dropped?: boolean;
  sessionId?: string | null;
  metadata?: Record<string, unknown>;
  contexts?: unknown[];
  expectedSpanCount?: number | null;
  /** The SDK's trace id when it differs from the canonical id (a replay's local trace id). */
  sourceTraceId?: string;
  inputSourceTraceId?: string | null;
}

export async function createTrace(db: Database, organizationId: string, o: TraceOverrides = {}) {
  const id = o.id ?? newId();
  const startedAt = o.startedAt === null ? null : (o.startedAt ?? new Date());
  const endedAt = o.endedAt === null || !startedAt ? (o.endedAt ?? null) : (o.endedAt ?? new Date(startedAt.getTime() + 1000));
  return db.prisma.trace.create({
    data: {
      organizationId,
      id,
      sourceTraceId: o.sourceTraceId ?? id,
      name: o.name ?? null,
      traceFunctionKey: o.traceFunctionKey ?? "answer-question",
      status: o.status ?? "completed",
      ingestionType: o.ingestionType ?? "captured",
      startedAt,
      endedAt,
      completedAt: (o.status ?? "completed") === "pending" ? null : new Date(),
      testRunId: o.testRunId ?? null,
      originalTraceId: o.originalTraceId ?? null,
      replayAttempt: o.replayAttempt ?? null,
      dropped: o.dropped ?? false,
      sessionId: o.sessionId ?? null,
      metadata: (o.metadata ?? {}) as object,
      contexts: (o.contexts ?? []) as object[],
      expectedSpanCount: o.expectedSpanCount ?? null,
      inputSourceTraceId: o.inputSourceTraceId ?? null,
    },
  });
}

export interface SpanOverrides {
  id?: string;
  parentSpanId?: string | null;
  name?: string;
  type?: string;
  input?: unknown;
  output?: unknown;
  error?: string | null;
  startedAt?: Date;
  endedAt?: Date;
  contexts?: unknown[];
  prompt?: string;
  /** Stored columns derived at ingest (docs/api/ingestion.md, "Span payload"). */
  model?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cachedTokens?: number | null;
  totalTokens?: number | null;
  /** Source (SDK) ids when they differ from the canonical ones. */
  sourceSpanId?: string;
  sourceTraceId?: string;
  sourceParentSpanId?: string;
  traceFunctionKey?: string | null;
  nodeKey?: string | null;
  payloadType?: string;
  instrumentation?: string | null;
  source?: string | null;
  spanOriginName?: string | null;
  spanOriginVersion?: string | null;
  contentOff?: boolean;
  errors?: unknown[] | null;
  /** Extra span_data keys (input_meta, output_meta, input_serialized, …). */
  spanData?: Record<string, unknown>;
  isFinal?: boolean;
  /** Replay attribution (docs/replay.md, "Replay traces"). */
  testRunId?: string | null;
  inputSourceSpanId?: string | null;
  mocked?: boolean;
}

/** A finished sdk-function span; rawSpan mirrors what the SDKs send (docs/api/ingestion.md, "Span payload"). */
export async function createSpan(db: Database, organizationId: string, traceId: string, o: SpanOverrides = {}) {
  const id = o.id ?? newId();
  const startedAt = o.startedAt ?? new Date();
  const endedAt = o.endedAt ?? new Date(startedAt.getTime() + 100);
  const name = o.name ?? "step";
  const rawSpan = {
    id: o.sourceSpanId ?? id,
    trace_id: o.sourceTraceId ?? traceId,
    ...(o.parentSpanId ? { parent_id: o.sourceParentSpanId ?? o.parentSpanId } : {}),
    started_at: startedAt.toISOString(),
    ended_at: endedAt.toISOString(),
    span_data: {
      name,
      type: o.type ?? "function",
      input: o.input ?? [],
      output: o.output ?? null,
      ...(o.error ? { error: o.error } : {}),
      ...(o.contexts ? { contexts: o.contexts } : {}),
      ...(o.prompt !== undefined ? { prompt: o.prompt } : {}),
      ...o.spanData,
    },
  };
  return db.prisma.span.create({
    data: {
      organizationId,
      id,
      traceId,
      parentSpanId: o.parentSpanId ?? null,
      sourceSpanId: o.sourceSpanId ?? id,
      sourceTraceId: o.sourceTraceId ?? traceId,
      sourceParentSpanId: o.sourceParentSpanId ?? o.parentSpanId ?? null,
      payloadType: o.payloadType ?? "sdk-function",
      traceFunctionKey: o.traceFunctionKey ?? null,
      nodeKey: o.nodeKey ?? o.traceFunctionKey ?? null,
      instrumentation: o.instrumentation ?? null,
      source: o.source ?? null,
      spanOriginName: o.spanOriginName ?? null,
      spanOriginVersion: o.spanOriginVersion ?? null,
      contentOffBySimulationPlan: o.contentOff ?? false,
      errors: (o.errors ?? undefined) as object[] | undefined,
      model: o.model ?? null,
      inputTokens: o.inputTokens ?? null,
      outputTokens: o.outputTokens ?? null,
      cachedTokens: o.cachedTokens ?? null,
      totalTokens: o.totalTokens ?? null,
      name,
      type: o.type ?? "function",
      error: o.error ?? null,
      rawSpan: rawSpan as object,
      startedAt,
      endedAt,
      isFinal: o.isFinal ?? true,
      testRunId: o.testRunId ?? null,
      inputSourceSpanId: o.inputSourceSpanId ?? null,
      mocked: o.mocked ?? false,
      durationMs: endedAt.getTime() - startedAt.getTime(),
    },
  });
}
