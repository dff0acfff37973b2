// The only database access of dataset re-runs. Runs are serialised per dataset by the partial unique
// index grader_reruns_one_active_key (one pending/running run per dataset), progress by a row lock. Times inside CASE are parameters: Citus refuses now() there
// (docs/operations.md, "Citus").
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

/** What a re-run grades: a dataset's traces, an experiment's replay traces, or those of a group's experiments. */
export type RerunSubject = { kind: "dataset" | "experiment" | "experimentGroup"; id: string };

const SUBJECT_COLUMN = { dataset: sql`dataset_id`, experiment: sql`experiment_id`, experimentGroup: sql`experiment_group_id` } as const;

export interface RerunRow {
  id: string;
  datasetId: string | null;
  experimentId: string | null;
  experimentGroupId: string | null;
  status: string;
  graderIds: string[];
  totalTraces: number;
  completedTraces: number;
  tracesGraded: number | null;
  gradersRun: number | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = sql`id, dataset_id AS "datasetId", experiment_id AS "experimentId", experiment_group_id AS "experimentGroupId", status, grader_ids AS "graderIds", total_traces AS "totalTraces",
  completed_traces AS "completedTraces", traces_graded AS "tracesGraded", graders_run AS "gradersRun", error,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export async function findActiveRerun(db: DbClient, organizationId: string, subject: RerunSubject, lock = false): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND ${SUBJECT_COLUMN[subject.kind]} = ${subject.id}::uuid AND status IN ('pending', 'running')
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return row ?? null;
}

export async function findRerun(db: DbClient, organizationId: string, subject: RerunSubject, runId: string): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND ${SUBJECT_COLUMN[subject.kind]} = ${subject.id}::uuid AND id = ${runId}::uuid`);
  return row ?? null;
}

/** Inserts a pending run unless the subject already has an active one (then null: join or refuse it). */
export async function insertRerunIfNoneActive(db: DbClient, r: { id: string; organizationId: string; subject: RerunSubject; graderIds: string[] }): Promise<RerunRow | null> {
  const column = SUBJECT_COLUMN[r.subject.kind];
  const [row] = await db.sql.query<RerunRow>(sql`
    INSERT INTO grader_reruns (id, organization_id, ${column}, grader_ids, status)
    VALUES (${r.id}::uuid, ${r.organizationId}::uuid, ${r.subject.id}::uuid, ${JSON.stringify(r.graderIds)}::jsonb, 'pending')
    ON CONFLICT (organization_id, ${column}) WHERE status IN ('pending', 'running') DO NOTHING
    RETURNING ${COLUMNS}`);
  return row ?? null;
}

/** The traces a re-run grades, in a stable order: a dataset's members, or the non-dropped replay traces of an experiment or of a group's experiments. */
function subjectTraces(organizationId: string, subject: RerunSubject) {
  if (subject.kind === "dataset") {
    return sql`SELECT dt.trace_id AS trace_id FROM dataset_traces dt
      JOIN traces t ON t.organization_id = dt.organization_id AND t.id = dt.trace_id
      WHERE dt.dataset_id = ${subject.id}::uuid AND dt.organization_id = ${organizationId}::uuid`;
  }
  const runs = subject.kind === "experiment"
    ? sql`SELECT ${subject.id}::uuid`
    : sql`SELECT id FROM experiments WHERE organization_id = ${organizationId}::uuid AND experiment_group_id = ${subject.id}::uuid`;
  return sql`SELECT t.id AS trace_id FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.test_run_id IN (${runs}) AND t.dropped = false`;
}

/** Snapshots the subject's traces × graders as the run's items; returns the trace ids. */
export async function insertRerunItems(db: DbClient, run: { id: string; organizationId: string; subject: RerunSubject; graderIds: string[] }): Promise<string[]> {
  const traces = await db.sql.query<{ traceId: string }>(sql`
    SELECT trace_id AS "traceId" FROM (${subjectTraces(run.organizationId, run.subject)}) s ORDER BY trace_id`);
  await db.sql.query(sql`
    INSERT INTO grader_rerun_items (run_id, organization_id, trace_id, grader_id)
    SELECT ${run.id}::uuid, ${run.organizationId}::uuid, s.trace_id, g.value::uuid
    FROM (${subjectTraces(run.organizationId, run.subject)}) s
    CROSS JOIN jsonb_array_elements_text(${JSON.stringify(run.graderIds)}::jsonb) AS g(value)`);
  const done = traces.length === 0;
  await db.sql.query(sql`
    UPDATE grader_reruns SET total_traces = ${traces.length},
      status = CASE WHEN ${done} THEN 'completed' ELSE status END,
      traces_graded = CASE WHEN ${done} THEN 0 ELSE traces_graded END,
      graders_run = CASE WHEN ${done} THEN jsonb_array_length(grader_ids) ELSE graders_run END,
      finished_at = CASE WHEN ${done} THEN ${new Date().toISOString()}::timestamptz ELSE finished_at END, updated_at = now()
    WHERE organization_id = ${run.organizationId}::uuid AND id = ${run.id}::uuid`);
  return traces.map((t) => t.traceId);
}

export async function markRerunRunning(db: DbClient, organizationId: string, runId: string): Promise<boolean> {
  const rows = await db.sql.query<{ status: string }>(sql`
    UPDATE grader_reruns SET status = CASE WHEN status = 'pending' THEN 'running' ELSE status END,
      updated_at = CASE WHEN status = 'pending' THEN ${new Date().toISOString()}::timestamptz ELSE updated_at END
    WHERE organization_id = ${organizationId}::uuid AND id = ${runId}::uuid RETURNING status`);
  return rows[0]?.status === "running";
}

/**
 * Records that a run's (trace, grader) is done, in the transaction that wrote its label. The run row
 * is locked first so concurrent completions of one run count each trace exactly once; an item already
 * done (a retried job) changes nothing and returns false (the caller then writes no label). The run
 * completes when its last trace is done.
 */
export async function recordRerunItemDone(db: DbClient, item: { organizationId: string; runId: string; traceId: string; graderId: string; graded: boolean }): Promise<boolean> {
  const [run] = await db.sql.query<{ status: string }>(sql`
    SELECT status FROM grader_reruns WHERE organization_id = ${item.organizationId}::uuid AND id = ${item.runId}::uuid FOR UPDATE`);
  if (!run || (run.status !== "pending" && run.status !== "running")) return false;
  const marked = await db.sql.query(sql`
    UPDATE grader_rerun_items SET done_at = now(), graded = ${item.graded}
    WHERE organization_id = ${item.organizationId}::uuid AND run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid
      AND grader_id = ${item.graderId}::uuid AND done_at IS NULL
    RETURNING run_id`);
  if (marked.length === 0) return false;
  const [trace] = await db.sql.query<{ allDone: boolean; anyGraded: boolean }>(sql`
    SELECT bool_and(done_at IS NOT NULL) AS "allDone", bool_or(COALESCE(graded, false)) AS "anyGraded"
    FROM grader_rerun_items
    WHERE organization_id = ${item.organizationId}::uuid AND run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid`);
  if (!trace?.allDone) return true;
  await db.sql.query(sql`
    UPDATE grader_reruns SET
      completed_traces = completed_traces + 1,
      traces_graded = COALESCE(traces_graded, 0) + ${trace.anyGraded ? 1 : 0},
      status = CASE WHEN completed_traces + 1 >= total_traces THEN 'completed' ELSE 'running' END,
      graders_run = CASE WHEN completed_traces + 1 >= total_traces THEN jsonb_array_length(grader_ids) ELSE graders_run END,
      finished_at = CASE WHEN completed_traces + 1 >= total_traces THEN ${new Date().toISOString()}::timestamptz ELSE finished_at END,
      updated_at = now()
    WHERE organization_id = ${item.organizationId}::uuid AND id = ${item.runId}::uuid`);
  return true;
}

export async function isRerunItemDone(db: DbClient, item: { organizationId: string; runId: string; traceId: string; graderId: string }): Promise<boolean> {
  const rows = await db.sql.query(sql`
    SELECT 1 FROM grader_rerun_items
    WHERE organization_id = ${item.organizationId}::uuid AND run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid AND grader_id = ${item.graderId}::uuid AND done_at IS NOT NULL`);
  return rows.length > 0;
}

export async function markRerunErrored(db: DbClient, organizationId: string, runId: string, error: string): Promise<void> {
  await db.sql.query(sql`
    UPDATE grader_reruns SET status = 'errored', error = ${error}, finished_at = now(), updated_at = now()
    WHERE organization_id = ${organizationId}::uuid AND id = ${runId}::uuid AND status IN ('pending', 'running')`);
}

/** The dataset with its assigned graders (their status and organization), or null. */
export function selectDatasetWithGraders(db: DbClient, organizationId: string, datasetId: string) {
  return db.prisma.dataset.findFirst({
    where: { id: datasetId, organizationId },
    select: { id: true, graders: { select: { grader: { select: { id: true, status: true, organizationId: true } } } } },
  });
}

/** The subject's newest run, whatever its status. */
export async function findLatestRerun(db: DbClient, organizationId: string, subject: RerunSubject): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND ${SUBJECT_COLUMN[subject.kind]} = ${subject.id}::uuid
    ORDER BY created_at DESC, id DESC LIMIT 1`);
  return row ?? null;
}

/** A run's items (trace × grader) with the label each grader now holds on the trace, newest trace first. */
export function selectRerunResults(db: DbClient, organizationId: string, runId: string, take: number) {
  return db.sql.query<{
    trace_id: string; trace_name: string | null; grader_id: string; grader_name: string | null; graded: boolean | null;
    label: boolean | null; label_reason: string | null; failure_diagnostic: string | null; score: number | null; category: string | null;
  }>(sql`
    SELECT i.trace_id::text AS trace_id, COALESCE(NULLIF(t.name, ''), t.trace_function_key) AS trace_name,
      i.grader_id::text AS grader_id, g.name AS grader_name, i.graded,
      l.label, l.label_reason, l.failure_diagnostic, l.score, l.category
    FROM grader_rerun_items i
    LEFT JOIN traces t ON t.organization_id = i.organization_id AND t.id = i.trace_id
    LEFT JOIN graders g ON g.organization_id = i.organization_id AND g.id = i.grader_id
    LEFT JOIN grader_labels l ON l.organization_id = i.organization_id AND l.trace_id = i.trace_id AND l.grader_id = i.grader_id
    WHERE i.organization_id = ${organizationId}::uuid AND i.run_id = ${runId}::uuid
    ORDER BY t.started_at DESC NULLS LAST, i.trace_id, g.name, i.grader_id
    LIMIT ${take}`);
}
