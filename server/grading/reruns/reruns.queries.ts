// The only database access of dataset re-runs. Runs are serialised per dataset by the partial unique
// index grader_reruns_one_active_key (one pending/running run per dataset), progress by a row lock.
import type { DbClient } from "../../db/client.ts";
import { sql } from "../../db/sql.ts";

export interface RerunRow {
  id: string;
  datasetId: string;
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

const COLUMNS = sql`id, dataset_id AS "datasetId", status, grader_ids AS "graderIds", total_traces AS "totalTraces",
  completed_traces AS "completedTraces", traces_graded AS "tracesGraded", graders_run AS "gradersRun", error,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export async function findActiveRerun(db: DbClient, organizationId: string, datasetId: string, lock = false): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND dataset_id = ${datasetId}::uuid AND status IN ('pending', 'running')
    ${lock ? sql`FOR UPDATE` : sql``}`);
  return row ?? null;
}

export async function findRerun(db: DbClient, organizationId: string, datasetId: string, runId: string): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    SELECT ${COLUMNS} FROM grader_reruns
    WHERE organization_id = ${organizationId}::uuid AND dataset_id = ${datasetId}::uuid AND id = ${runId}::uuid`);
  return row ?? null;
}

/** Inserts a pending run unless the dataset already has an active one (then null: join or refuse it). */
export async function insertRerunIfNoneActive(db: DbClient, r: { id: string; organizationId: string; datasetId: string; graderIds: string[] }): Promise<RerunRow | null> {
  const [row] = await db.sql.query<RerunRow>(sql`
    INSERT INTO grader_reruns (id, organization_id, dataset_id, grader_ids, status)
    VALUES (${r.id}::uuid, ${r.organizationId}::uuid, ${r.datasetId}::uuid, ${JSON.stringify(r.graderIds)}::jsonb, 'pending')
    ON CONFLICT (dataset_id) WHERE status IN ('pending', 'running') DO NOTHING
    RETURNING ${COLUMNS}`);
  return row ?? null;
}

/** Snapshots the dataset's traces × graders as the run's items; returns the trace ids. */
export async function insertRerunItems(db: DbClient, run: { id: string; organizationId: string; datasetId: string; graderIds: string[] }): Promise<string[]> {
  const traces = await db.sql.query<{ traceId: string }>(sql`
    SELECT dt.trace_id AS "traceId" FROM dataset_traces dt
    JOIN traces t ON t.organization_id = dt.organization_id AND t.id = dt.trace_id
    WHERE dt.dataset_id = ${run.datasetId}::uuid AND dt.organization_id = ${run.organizationId}::uuid
    ORDER BY dt.added_at, dt.trace_id`);
  await db.sql.query(sql`
    INSERT INTO grader_rerun_items (run_id, organization_id, trace_id, grader_id)
    SELECT ${run.id}::uuid, dt.organization_id, dt.trace_id, g.value::uuid
    FROM dataset_traces dt
    JOIN traces t ON t.organization_id = dt.organization_id AND t.id = dt.trace_id
    CROSS JOIN jsonb_array_elements_text(${JSON.stringify(run.graderIds)}::jsonb) AS g(value)
    WHERE dt.dataset_id = ${run.datasetId}::uuid AND dt.organization_id = ${run.organizationId}::uuid`);
  const done = traces.length === 0;
  await db.sql.query(sql`
    UPDATE grader_reruns SET total_traces = ${traces.length},
      status = CASE WHEN ${done} THEN 'completed' ELSE status END,
      traces_graded = CASE WHEN ${done} THEN 0 ELSE traces_graded END,
      graders_run = CASE WHEN ${done} THEN jsonb_array_length(grader_ids) ELSE graders_run END,
      finished_at = CASE WHEN ${done} THEN now() ELSE finished_at END, updated_at = now()
    WHERE id = ${run.id}::uuid`);
  return traces.map((t) => t.traceId);
}

export async function markRerunRunning(db: DbClient, runId: string): Promise<boolean> {
  const rows = await db.sql.query<{ status: string }>(sql`
    UPDATE grader_reruns SET status = CASE WHEN status = 'pending' THEN 'running' ELSE status END,
      updated_at = CASE WHEN status = 'pending' THEN now() ELSE updated_at END
    WHERE id = ${runId}::uuid RETURNING status`);
  return rows[0]?.status === "running";
}

/**
 * Records that a run's (trace, grader) is done, in the transaction that wrote its label. The run row
 * is locked first so concurrent completions of one run count each trace exactly once; an item already
 * done (a retried job) changes nothing and returns false (the caller then writes no label). The run
 * completes when its last trace is done.
 */
export async function recordRerunItemDone(db: DbClient, item: { runId: string; traceId: string; graderId: string; graded: boolean }): Promise<boolean> {
  const [run] = await db.sql.query<{ status: string }>(sql`SELECT status FROM grader_reruns WHERE id = ${item.runId}::uuid FOR UPDATE`);
  if (!run || (run.status !== "pending" && run.status !== "running")) return false;
  const marked = await db.sql.query(sql`
    UPDATE grader_rerun_items SET done_at = now(), graded = ${item.graded}
    WHERE run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid AND grader_id = ${item.graderId}::uuid AND done_at IS NULL
    RETURNING run_id`);
  if (marked.length === 0) return false;
  const [trace] = await db.sql.query<{ allDone: boolean; anyGraded: boolean }>(sql`
    SELECT bool_and(done_at IS NOT NULL) AS "allDone", bool_or(COALESCE(graded, false)) AS "anyGraded"
    FROM grader_rerun_items WHERE run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid`);
  if (!trace?.allDone) return true;
  await db.sql.query(sql`
    UPDATE grader_reruns SET
      completed_traces = completed_traces + 1,
      traces_graded = COALESCE(traces_graded, 0) + ${trace.anyGraded ? 1 : 0},
      status = CASE WHEN completed_traces + 1 >= total_traces THEN 'completed' ELSE 'running' END,
      graders_run = CASE WHEN completed_traces + 1 >= total_traces THEN jsonb_array_length(grader_ids) ELSE graders_run END,
      finished_at = CASE WHEN completed_traces + 1 >= total_traces THEN now() ELSE finished_at END,
      updated_at = now()
    WHERE id = ${item.runId}::uuid`);
  return true;
}

export async function isRerunItemDone(db: DbClient, item: { runId: string; traceId: string; graderId: string }): Promise<boolean> {
  const rows = await db.sql.query(sql`
    SELECT 1 FROM grader_rerun_items
    WHERE run_id = ${item.runId}::uuid AND trace_id = ${item.traceId}::uuid AND grader_id = ${item.graderId}::uuid AND done_at IS NOT NULL`);
  return rows.length > 0;
}

export async function markRerunErrored(db: DbClient, runId: string, error: string): Promise<void> {
  await db.sql.query(sql`
    UPDATE grader_reruns SET status = 'errored', error = ${error}, finished_at = now(), updated_at = now()
    WHERE id = ${runId}::uuid AND status IN ('pending', 'running')`);
}

/** The dataset with its assigned graders (their status and organization), or null. */
export function selectDatasetWithGraders(db: DbClient, organizationId: string, datasetId: string) {
  return db.prisma.dataset.findFirst({
    where: { id: datasetId, organizationId },
    select: { id: true, graders: { select: { grader: { select: { id: true, status: true, organizationId: true } } } } },
  });
}
