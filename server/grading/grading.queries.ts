// Database access of grading: the trace as grading reads it, grader labels, and the completion outbox.
import { markTracesChanged } from "../insight/dashboard/rollups/rollups.queries.ts";
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";
import { keepReplacedGraderLabel } from "../graders/grader-label-history.queries.ts";
import type { TGradingSpan, TVerdict } from "./grading.schemas.ts";

export interface GradingTrace {
  id: string;
  status: string;
  traceFunctionKey: string | null;
  testRunId: string | null;
  dropped: boolean;
}

export async function findGradingTrace(db: DbClient, organizationId: string, traceId: string): Promise<GradingTrace | null> {
  return db.prisma.trace.findUnique({
    where: { organizationId_id: { organizationId, id: traceId } },
    select: { id: true, status: true, traceFunctionKey: true, testRunId: true, dropped: true },
  });
}

type SpanRow = Omit<TGradingSpan, "startedAt" | "endedAt"> & { startedAt: Date | string | null; endedAt: Date | string | null };

/** Spans of a trace with the fields rules and the judge read (output from raw_span->'span_data'). */
export async function findGradingSpans(db: DbClient, organizationId: string, traceId: string): Promise<TGradingSpan[]> {
  const rows = await db.sql.query<SpanRow>(sql`
    SELECT id, parent_span_id AS "parentSpanId", name, type, started_at AS "startedAt", ended_at AS "endedAt", error,
      raw_span->'span_data'->'input' AS input, raw_span->'span_data'->'output' AS output,
      content_off_by_simulation_plan AS "contentOff",
      input_tokens AS "inputTokens", output_tokens AS "outputTokens", total_tokens AS "totalTokens"
    FROM spans WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid`);
  const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));
  return rows.map((r) => ({ ...r, startedAt: toDate(r.startedAt), endedAt: toDate(r.endedAt), input: r.input ?? undefined, output: r.output ?? undefined }));
}

export interface GraderLabelWrite {
  organizationId: string;
  traceId: string;
  graderId: string;
  /** The grader's version that was evaluated (docs/graders.md, "History"). */
  graderVersion: number;
  verdict: TVerdict;
  source: "live_grader" | "human";
  evaluatedAt: Date;
}

/**
 * One grader label per (organization, trace, grader): a later grading replaces the row's verdict, score and
 * category; the replaced row goes to the history first (docs/graders.md, "Scores and categories").
 */
export async function upsertGraderLabel(db: DbClient, id: string, w: GraderLabelWrite): Promise<void> {
  const v = w.verdict;
  const now = new Date();
  await keepReplacedGraderLabel(db, { organizationId: w.organizationId, traceId: w.traceId, graderId: w.graderId, replacedAt: now, replacedBy: null });
  await db.sql.query(sql`
    INSERT INTO grader_labels (id, organization_id, trace_id, grader_id, grader_version, label, score, category, label_reason, failure_diagnostic, label_confidence,
                               source, decided_by, decided_via, evaluated_at, updated_at)
    VALUES (${id}::uuid, ${w.organizationId}::uuid, ${w.traceId}::uuid, ${w.graderId}::uuid, ${w.graderVersion}::integer, ${v.label}::boolean,
            ${v.score ?? null}::float8, ${v.category ?? null}, ${v.reason}, ${v.failureDiagnostic},
            ${v.confidence}, ${w.source}, NULL, NULL, ${w.evaluatedAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    ON CONFLICT (organization_id, trace_id, grader_id) DO UPDATE SET
      grader_version = EXCLUDED.grader_version, label = EXCLUDED.label, score = EXCLUDED.score, category = EXCLUDED.category,
      label_reason = EXCLUDED.label_reason, failure_diagnostic = EXCLUDED.failure_diagnostic, label_confidence = EXCLUDED.label_confidence,
      source = EXCLUDED.source, decided_by = EXCLUDED.decided_by, decided_via = EXCLUDED.decided_via,
      evaluated_at = EXCLUDED.evaluated_at, updated_at = EXCLUDED.updated_at`);
  // After the write, so that a job run that reads the mark sees the label (docs/scaling.md, "Dashboard").
  await markTracesChanged(db, w.organizationId, [w.traceId]);
}

/** Whether the trace holds the grader's label written at this grader version. */
export async function hasGraderLabelAtVersion(db: DbClient, organizationId: string, traceId: string, graderId: string, version: number): Promise<boolean> {
  const rows = await db.sql.query(sql`
    SELECT 1 FROM grader_labels WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid AND grader_id = ${graderId}::uuid
      AND grader_version = ${version}::integer`);
  return rows.length > 0;
}

export interface LiveGradingTarget {
  eventId: string;
  organizationId: string;
  traceId: string;
  /** null when the trace has nothing to grade (a replay, dropped, not completed, or no live grader). */
  graderId: string | null;
  /** trace.completed, or trace.amended (a native OpenTelemetry trace that got spans after completing). */
  kind: string;
  /** The grader has online settings (a sample or filter) still to apply (docs/graders.md, "Online evaluation"). */
  online: boolean;
}

/**
 * Organizations with unprocessed trace.completed or trace.amended events, read without locks: on Citus a
 * statement over every organization spans every shard, where row locks are refused, so the events are then
 * claimed one organization at a time (docs/operations.md, "Citus").
 */
export async function findOrganizationsWithEvents(db: DbClient, limit: number): Promise<string[]> {
  const rows = await db.sql.query<{ organizationId: string }>(sql`
    SELECT DISTINCT organization_id AS "organizationId" FROM trace_events
    WHERE processed_at IS NULL AND kind IN ('trace.completed', 'trace.amended')
    LIMIT ${limit}`);
  return rows.map((r) => r.organizationId);
}

/**
 * Claims one organization's unprocessed trace.completed events (SKIP LOCKED: concurrent dispatchers take
 * disjoint rows), marks them processed and returns the live graders each trace gets. Run inside the
 * transaction that also inserts the grading jobs, so an event becomes jobs exactly once. `online` says the
 * grader has online settings, which the caller then applies (selectOnlinePasses: a separate statement, as Citus
 * refuses their span subquery beside this one's data-modifying CTE).
 */
export async function claimCompletionEvents(db: DbClient, organizationId: string, limit: number, at: Date): Promise<LiveGradingTarget[]> {
  return db.sql.query<LiveGradingTarget>(sql`
    WITH claimed AS (
      SELECT id, organization_id, trace_id, kind FROM trace_events
      WHERE organization_id = ${organizationId}::uuid AND processed_at IS NULL AND kind IN ('trace.completed', 'trace.amended')
      ORDER BY id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), marked AS (
      UPDATE trace_events e SET processed_at = ${at.toISOString()}::timestamptz FROM claimed c
      WHERE e.organization_id = ${organizationId}::uuid AND e.id = c.id RETURNING e.id
    )
    SELECT c.id::text AS "eventId", c.organization_id AS "organizationId", c.trace_id AS "traceId", g.id AS "graderId", c.kind,
      COALESCE(g.config ? 'online', false) AS online
    FROM claimed c
    -- Each event's trace by its primary key, whatever the statistics say: planned as a join, a table
    -- without statistics (new, or never analyzed) had each event scan all of its organization's traces.
    LEFT JOIN LATERAL (
      SELECT t.organization_id, t.trace_function_key, t.test_run_id, t.dropped, t.status FROM traces t
      WHERE t.organization_id = ${organizationId}::uuid AND t.id = c.trace_id
      OFFSET 0
    ) t ON t.test_run_id IS NULL AND NOT t.dropped AND t.status IN ('completed', 'failed')
    LEFT JOIN graders g ON g.organization_id = ${organizationId}::uuid AND g.trace_function_key = t.trace_function_key
      AND g.status = 'active' AND g.live
    ORDER BY c.id`);
}
