// Completion by quiet period (docs/otel.md, "Completion"), for traces of the native OpenTelemetry door:
// they carry no completion signal and no span count. A pending trace completes once its root span has
// arrived and no new span of it has arrived for the quiet period; an amended trace (a span arrived after
// completion) is handed to the graders once more after the same quiet period. Rows are claimed one
// organization at a time with FOR UPDATE SKIP LOCKED, so several server instances sweep without doing the work
// twice.
import { sql, uuidArray, type SqlClient } from "../../db/sql.ts";
import { TRACE_COMPLETED_EVENT } from "./completion.queries.ts";

export const TRACE_AMENDED_EVENT = "trace.amended";

const QUIET_PENDING = sql`t.completion_mode = 'quiet' AND t.status = 'pending' AND NOT t.dropped
  AND EXISTS (SELECT 1 FROM spans s
    WHERE s.organization_id = t.organization_id AND s.trace_id = t.id AND s.source_parent_span_id IS NULL)`;
const AMENDED = sql`t.amendment_pending AND t.status <> 'pending' AND NOT t.dropped`;
// last_span_at is the write's time, from the server's clock (native.queries.ts), so the cutoff is too.
const quietFor = (quietSeconds: number) => sql`t.last_span_at <= ${new Date(Date.now() - quietSeconds * 1000).toISOString()}::timestamptz`;

/**
 * Organizations holding traces that match `which` and have been quiet long enough. Read without locks: on Citus a
 * statement over every organization spans every shard, where row locks are refused; the traces are then claimed one
 * organization at a time (docs/operations.md, "Citus").
 */
async function organizationsWith(db: SqlClient, which: typeof QUIET_PENDING, quietSeconds: number, limit: number): Promise<string[]> {
  const rows = await db.query<{ organizationId: string }>(sql`
    SELECT DISTINCT t.organization_id AS "organizationId" FROM traces t
    WHERE ${which} AND ${quietFor(quietSeconds)}
    LIMIT ${limit}`);
  return rows.map((r) => r.organizationId);
}

/** Organizations with pending quiet traces whose root arrived and that have been quiet long enough. */
export const findQuietOrganizations = (db: SqlClient, quietSeconds: number, limit: number) => organizationsWith(db, QUIET_PENDING, quietSeconds, limit);

/** Organizations with completed quiet traces that were amended and are quiet again. */
export const findAmendedOrganizations = (db: SqlClient, quietSeconds: number, limit: number) => organizationsWith(db, AMENDED, quietSeconds, limit);

/** One organization's pending quiet traces whose root arrived and that have been quiet long enough, locked. */
export async function claimQuietTraces(tx: SqlClient, organizationId: string, quietSeconds: number, limit: number): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(sql`
    SELECT t.id FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND ${QUIET_PENDING} AND ${quietFor(quietSeconds)}
    ORDER BY t.last_span_at
    LIMIT ${limit}
    FOR UPDATE OF t SKIP LOCKED`);
  return rows.map((r) => r.id);
}

/** One organization's completed quiet traces that were amended, quiet again, and not yet handed to the graders again, locked. */
export async function claimAmendedTraces(tx: SqlClient, organizationId: string, quietSeconds: number, limit: number): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(sql`
    SELECT t.id FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND ${AMENDED} AND ${quietFor(quietSeconds)}
    ORDER BY t.last_span_at
    LIMIT ${limit}
    FOR UPDATE OF t SKIP LOCKED`);
  return rows.map((r) => r.id);
}

export interface TIoSpanRow {
  id: string;
  parentSpanId: string | null;
  sourceParentSpanId: string | null;
  type: string;
  /** Milliseconds since the epoch. */
  startedAt: number | null;
  endedAt: number | null;
  input: unknown;
  output: unknown;
  ioFrom: unknown;
}

/** The spans of one trace with what deriving the trace's input and output reads. */
export function selectIoSpans(tx: SqlClient, organizationId: string, traceId: string): Promise<TIoSpanRow[]> {
  return tx.query<TIoSpanRow>(sql`
    SELECT id, parent_span_id AS "parentSpanId", source_parent_span_id AS "sourceParentSpanId", type,
      (extract(epoch FROM started_at) * 1000)::float8 AS "startedAt", (extract(epoch FROM ended_at) * 1000)::float8 AS "endedAt",
      raw_span->'span_data'->'input' AS input, raw_span->'span_data'->'output' AS output,
      raw_span->'span_data'->'io_from' AS "ioFrom"
    FROM spans WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid`);
}

/** Writes the root span's derived input and output, and which spans they came from. */
export async function updateRootIo(tx: SqlClient, organizationId: string, spanId: string, io: { input: unknown; output: unknown; ioFrom: unknown }): Promise<void> {
  const patch = JSON.stringify({ input: io.input ?? null, output: io.output ?? null, io_from: io.ioFrom });
  await tx.query(sql`
    UPDATE spans SET raw_span = jsonb_set(raw_span::jsonb, '{span_data}', COALESCE(raw_span::jsonb->'span_data', '{}'::jsonb) || ${patch}::jsonb)::json, updated_at = now()
    WHERE organization_id = ${organizationId}::uuid AND id = ${spanId}::uuid`);
}

/**
 * Gives every native span of the traces the trace's own trace function key (the sim plan node key): a
 * span that arrived before the root span knew only its service name.
 */
export async function alignNodeKeys(tx: SqlClient, organizationId: string, traceIds: string[]): Promise<void> {
  await tx.query(sql`
    UPDATE spans s SET node_key = t.trace_function_key, trace_function_key = t.trace_function_key
    FROM traces t
    WHERE t.organization_id = ${organizationId}::uuid AND t.id = ANY(${uuidArray(traceIds)})
      AND s.organization_id = t.organization_id AND s.trace_id = t.id
      AND t.trace_function_key IS NOT NULL AND s.node_key IS DISTINCT FROM t.trace_function_key`);
}

/**
 * Completes the traces ("failed" when the root span recorded an error, as for SDK traces) and writes
 * one trace.completed outbox row each, which live graders pick up exactly as for SDK traces.
 */
export async function completeQuietTraces(tx: SqlClient, organizationId: string, traceIds: string[]): Promise<void> {
  await tx.query(sql`
    WITH done AS (
      UPDATE traces t SET
        status = CASE WHEN EXISTS (
          SELECT 1 FROM spans s
          WHERE s.organization_id = t.organization_id AND s.trace_id = t.id
            AND s.source_parent_span_id IS NULL AND s.error IS NOT NULL) THEN 'failed' ELSE 'completed' END,
        completion_signal_at = COALESCE(t.completion_signal_at, ${new Date().toISOString()}::timestamptz),
        completed_at = now(), updated_at = now()
      WHERE t.organization_id = ${organizationId}::uuid AND t.id = ANY(${uuidArray(traceIds)}) AND t.status = 'pending'
      RETURNING t.id
    )
    INSERT INTO trace_events (organization_id, trace_id, kind)
    SELECT ${organizationId}::uuid, id, ${TRACE_COMPLETED_EVENT} FROM done
    ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`);
}

/** Records the amendment once (graders re-run once), and re-reads the status from the root span. */
export async function markAmendedHandled(tx: SqlClient, organizationId: string, traceIds: string[]): Promise<void> {
  await tx.query(sql`
    WITH touched AS (
      UPDATE traces t SET
        status = CASE WHEN EXISTS (
          SELECT 1 FROM spans s
          WHERE s.organization_id = t.organization_id AND s.trace_id = t.id
            AND s.source_parent_span_id IS NULL AND s.error IS NOT NULL) THEN 'failed' ELSE 'completed' END,
        amendment_pending = false, updated_at = now()
      WHERE t.organization_id = ${organizationId}::uuid AND t.id = ANY(${uuidArray(traceIds)})
      RETURNING t.id
    )
    INSERT INTO trace_events (organization_id, trace_id, kind)
    SELECT ${organizationId}::uuid, id, ${TRACE_AMENDED_EVENT} FROM touched
    ON CONFLICT (organization_id, trace_id, kind) DO NOTHING`);
}
