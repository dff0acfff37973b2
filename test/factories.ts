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
  startedAt?: Date;
  endedAt?: Date;
  testRunId?: string | null;
  originalTraceId?: string | null;
  replayAttempt?: number | null;
}

export async function createTrace(db: Database, organizationId: string, o: TraceOverrides = {}) {
  const id = o.id ?? newId();
  const startedAt = o.startedAt ?? new Date();
  return db.prisma.trace.create({
    data: {
      organizationId,
      id,
      sourceTraceId: id,
      name: o.name ?? null,
      traceFunctionKey: o.traceFunctionKey ?? "answer-question",
      status: o.status ?? "completed",
      ingestionType: o.ingestionType ?? "captured",
      startedAt,
      endedAt: o.endedAt ?? new Date(startedAt.getTime() + 1000),
      completedAt: (o.status ?? "completed") === "pending" ? null : new Date(),
      testRunId: o.testRunId ?? null,
      originalTraceId: o.originalTraceId ?? null,
      replayAttempt: o.replayAttempt ?? null,
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
}

/** A finished sdk-function span; rawSpan mirrors what the SDKs send (wire-facts §3.2). */
export async function createSpan(db: Database, organizationId: string, traceId: string, o: SpanOverrides = {}) {
  const id = o.id ?? newId();
  const startedAt = o.startedAt ?? new Date();
  const endedAt = o.endedAt ?? new Date(startedAt.getTime() + 100);
  const name = o.name ?? "step";
  const rawSpan = {
    id,
    trace_id: traceId,
    ...(o.parentSpanId ? { parent_id: o.parentSpanId } : {}),
    started_at: startedAt.toISOString(),
    ended_at: endedAt.toISOString(),
    span_data: {
      name,
      type: o.type ?? "function",
      input: o.input ?? [],
      output: o.output ?? null,
      ...(o.error ? { error: o.error } : {}),
      ...(o.contexts ? { contexts: o.contexts } : {}),
    },
  };
  return db.prisma.span.create({
    data: {
      organizationId,
      id,
      traceId,
      parentSpanId: o.parentSpanId ?? null,
      sourceSpanId: id,
      sourceTraceId: traceId,
      sourceParentSpanId: o.parentSpanId ?? null,
      payloadType: "sdk-function",
      name,
      type: o.type ?? "function",
      error: o.error ?? null,
      rawSpan,
      startedAt,
      endedAt,
      isFinal: true,
      durationMs: endedAt.getTime() - startedAt.getTime(),
    },
  });
}
