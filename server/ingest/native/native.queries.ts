// The native door's own statement in the shared write transaction (docs/otel.md, "Completion"): after the
// spans are written, each trace of the request is marked for completion by quiet period and records
// when a new span of it last arrived. A span first stored after the trace completed marks it amended.
// "New" means inserted by this write (created_at is the write's time, written with the span), so a retried
// batch neither delays completion nor amends a completed trace. The time is the write's parameter, not now():
// on Citus now() is refused inside CASE and COALESCE (docs/operations.md, "Citus").
import { sql, type SqlClient } from "../../db/sql.ts";
import type { TNativeTraceInfo } from "./to-items.ts";
import type { TWriteStamp } from "../write/write.queries.ts";

/** `contentChanged`: the request changed stored spans (GenAI events arrived), which amends a completed trace too. */
export async function recordNativeTraces(tx: SqlClient, organizationId: string, traces: TNativeTraceInfo[], stamp: TWriteStamp, contentChanged = false): Promise<void> {
  if (traces.length === 0) return;
  const rows = JSON.stringify([...traces].sort((a, b) => (a.id < b.id ? -1 : 1)));
  const at = stamp.at.toISOString();
  await tx.query(sql`
    WITH input AS (
      SELECT i.*, EXISTS (
        SELECT 1 FROM spans s
        WHERE s.organization_id = ${organizationId}::uuid AND s.trace_id = i.id AND s.created_at = ${at}::timestamptz
      ) OR ${contentChanged}::boolean AS fresh
      FROM jsonb_to_recordset(${rows}::jsonb) AS i(
        id uuid, name text, trace_function_key text, session_id text, metadata jsonb, started_at timestamptz, ended_at timestamptz)
    )
    UPDATE traces t SET
      completion_mode = 'quiet',
      name = COALESCE(i.name, t.name),
      trace_function_key = COALESCE(i.trace_function_key, t.trace_function_key),
      session_id = COALESCE(t.session_id, i.session_id),
      metadata = t.metadata || COALESCE(i.metadata, '{}'::jsonb),
      started_at = COALESCE(i.started_at, t.started_at),
      ended_at = COALESCE(i.ended_at, t.ended_at),
      last_span_at = CASE WHEN i.fresh OR t.last_span_at IS NULL THEN ${at}::timestamptz ELSE t.last_span_at END,
      amended_at = CASE WHEN i.fresh AND t.status <> 'pending' THEN COALESCE(t.amended_at, ${at}::timestamptz) ELSE t.amended_at END,
      -- The first amendment queues the one re-grade; later ones are stored without grading again.
      amendment_pending = t.amendment_pending OR (i.fresh AND t.status <> 'pending' AND t.amended_at IS NULL),
      updated_at = ${at}::timestamptz
    FROM input i
    WHERE t.organization_id = ${organizationId}::uuid AND t.id = i.id`);
}
