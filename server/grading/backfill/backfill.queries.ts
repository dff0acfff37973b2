// The only database access of backfills (docs/graders.md, "Online evaluation"). A backfill is a row of
// grader_reruns whose subject is a grader (grader_id), with its items in grader_rerun_items, so the grading
// worker records its progress as it does a re-run's. One active backfill per grader, by the partial unique
// index grader_reruns_one_active_backfill_key. Times are parameters, never now() (docs/operations.md, "Citus").
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";
import { onlineSettingsMatch } from "../online.queries.ts";

export interface BackfillRow {
  id: string;
  graderId: string;
  graderVersion: number;
  startedFrom: Date;
  startedTo: Date;
  status: string;
  totalTraces: number;
  completedTraces: number;
  tracesGraded: number | null;
  estimate: unknown;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = sql`id, grader_id AS "graderId", grader_version AS "graderVersion", started_from AS "startedFrom", started_to AS "startedTo",
  status, total_traces AS "totalTraces", completed_traces AS "completedTraces", traces_graded AS "tracesGraded", estimate, error,
  created_at AS "createdAt", updated_at AS "updatedAt", finished_at AS "finishedAt"`;

/**
 * The grader's candidate traces in the range: of its trace function, captured or seeded (never replays), not
 * dropped, completed or failed, started in [from, to), passing its sample and filter; `graded` when the trace
 * already holds this grader's label at its current version (a backfill leaves those out).
 */
function candidates(organizationId: string, graderId: string, from: Date, to: Date) {
  return sql`SELECT t.id AS trace_id, EXISTS (
      SELECT 1 FROM grader_labels l WHERE l.organization_id = ${organizationId}::uuid AND l.trace_id = t.id AND l.grader_id = g.id AND l.grader_version = g.version
    ) AS graded
    FROM graders g
    JOIN traces t ON t.organization_id = g.organization_id AND t.trace_function_key = g.trace_function_key
    WHERE g.organization_id = ${organizationId}::uuid AND g.id = ${graderId}::uuid AND t.organization_id = ${organizationId}::uuid
      AND t.test_run_id IS NULL AND NOT t.dropped AND t.status IN ('completed', 'failed')
      AND t.started_at >= ${from.toISOString()}::timestamptz AND t.started_at < ${to.toISOString()}::timestamptz
      AND ${onlineSettingsMatch(organizationId, sql`t`, sql`(g.config->'online')`)}`;
}

export interface BackfillCandidateStats {
  traces: number;
  alreadyGraded: number;
  /** Over the traces to grade: the outline's lines (spans) and the root span's input and output sizes, each capped per trace. */
  spans: number;
  rootInputChars: number;
  rootOutputChars: number;
}

/** Counts and prompt sizes of what a backfill over the range would grade (the estimate). */
export async function selectCandidateStats(db: DbClient, organizationId: string, graderId: string, from: Date, to: Date, caps: { spans: number; inputChars: number; outputChars: number }): Promise<BackfillCandidateStats> {
  const [row] = await db.sql.query<Record<keyof BackfillCandidateStats, string | null>>(sql`
    SELECT count(*) FILTER (WHERE NOT c.graded)::text AS traces, count(*) FILTER (WHERE c.graded)::text AS "alreadyGraded",
      sum(LEAST(x.spans, ${caps.spans}::bigint)) FILTER (WHERE NOT c.graded)::text AS spans,
      sum(LEAST(x.input_chars, ${caps.inputChars}::bigint)) FILTER (WHERE NOT c.graded)::text AS "rootInputChars",
      sum(LEAST(x.output_chars, ${caps.outputChars}::bigint)) FILTER (WHERE NOT c.graded)::text AS "rootOutputChars"
    FROM (${candidates(organizationId, graderId, from, to)}) c
    LEFT JOIN LATERAL (
      SELECT count(*) AS spans,
        COALESCE(max(length(sp.raw_span->'span_data'->>'input')) FILTER (WHERE sp.parent_span_id IS NULL), 0) AS input_chars,
        COALESCE(max(length(sp.raw_span->'span_data'->>'output')) FILTER (WHERE sp.parent_span_id IS NULL), 0) AS output_chars
      FROM spans sp WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = c.trace_id
    ) x ON true`);
  const n = (v: string | null | undefined) => Number(v ?? 0);
  return { traces: n(row?.traces), alreadyGraded: n(row?.alreadyGraded), spans: n(row?.spans), rootInputChars: n(row?.rootInputChars), rootOutputChars: n(row?.rootOutputChars) };
}

/** Inserts a pending backfill unless the grader has an active one (then null). */
export async function insertBackfillIfNoneActive(db: DbClient, r: {
  id: string; organizationId: string; graderId: string; graderVersion: number; from: Date; to: Date; estimate: unknown; requestedBy: string | null;
}): Promise<BackfillRow | null> {
  const [row] = await db.sql.query<BackfillRow>(sql`
    INSERT INTO grader_reruns (id, organization_id, grader_id, grader_ids, status, grader_version, started_from, started_to, estimate, requested_by)
    VALUES (${r.id}::uuid, ${r.organizationId}::uuid, ${r.graderId}::uuid, ${JSON.stringify([r.graderId])}::jsonb, 'pending', ${r.graderVersion}::integer,
      ${r.from.toISOString()}::timestamptz, ${r.to.toISOString()}::timestamptz, ${JSON.stringify(r.estimate)}::jsonb, ${r.requestedBy}::uuid)
    ON CONFLICT (organization_id, grader_id) WHERE status IN ('pending', 'running') DO NOTHING
    RETURNING ${COLUMNS}`);
  return row ?? null;
}

/** Snapshots the traces to grade as the backfill's items and sets its total (completed at once when none); returns the trace ids. */
export async function insertBackfillItems(db: DbClient, run: { id: string; organizationId: string; graderId: string; from: Date; to: Date }, at: Date): Promise<string[]> {
  const rows = await db.sql.query<{ traceId: string }>(sql`
    INSERT INTO grader_rerun_items (run_id, organization_id, trace_id, grader_id)
    SELECT ${run.id}::uuid, ${run.organizationId}::uuid, c.trace_id, ${run.graderId}::uuid
    FROM (${candidates(run.organizationId, run.graderId, run.from, run.to)}) c WHERE NOT c.graded
    RETURNING trace_id AS "traceId"`);
  const done = rows.length === 0;
  await db.sql.query(sql`
    UPDATE grader_reruns SET total_traces = ${rows.length}::integer,
      status = CASE WHEN ${done} THEN 'completed' ELSE status END,
      traces_graded = CASE WHEN ${done} THEN 0 ELSE traces_graded END,
      graders_run = CASE WHEN ${done} THEN 1 ELSE graders_run END,
      finished_at = CASE WHEN ${done} THEN ${at.toISOString()}::timestamptz ELSE finished_at END, updated_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${run.organizationId}::uuid AND id = ${run.id}::uuid`);
  return rows.map((r) => r.traceId).sort();
}

/** The grader's named backfill, or (without runId) its newest one. */
export async function findBackfill(db: DbClient, organizationId: string, graderId: string, runId?: string): Promise<BackfillRow | null> {
  const [row] = await db.sql.query<BackfillRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND grader_id = ${graderId}::uuid ${runId ? sql`AND id = ${runId}::uuid` : sql``}
    ORDER BY created_at DESC, id DESC LIMIT 1`);
  return row ?? null;
}

/** The grader's active backfill (pending or running), or null. */
export async function findActiveBackfill(db: DbClient, organizationId: string, graderId: string): Promise<BackfillRow | null> {
  const [row] = await db.sql.query<BackfillRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND grader_id = ${graderId}::uuid AND status IN ('pending', 'running')`);
  return row ?? null;
}

/**
 * Cancels an active backfill; null when it is not active. The grading worker records an item done under the
 * run's row lock only while the run is pending or running, so after this commits no further label is written.
 */
export async function cancelBackfillRow(db: DbClient, organizationId: string, graderId: string, runId: string, at: Date): Promise<BackfillRow | null> {
  const [row] = await db.sql.query<BackfillRow>(sql`
    UPDATE grader_reruns SET status = 'cancelled', cancelled_at = ${at.toISOString()}::timestamptz, finished_at = ${at.toISOString()}::timestamptz,
      updated_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${organizationId}::uuid AND grader_id = ${graderId}::uuid AND id = ${runId}::uuid AND status IN ('pending', 'running')
    RETURNING ${COLUMNS}`);
  return row ?? null;
}
