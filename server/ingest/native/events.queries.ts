// GenAI events received as log records (otel_span_events), and the stored spans they belong to.
import { sql, uuidArray, type SqlClient } from "../../db/sql.ts";

export interface TEventRow {
  span_id: string;
  trace_id: string;
  event_key: string;
  name: string;
  time: string | null;
  attributes: Record<string, unknown>;
  body: unknown;
  seq: number;
}

/** Inserts events (a retried export adds nothing); returns the spans that got a new event. */
export async function insertEvents(tx: SqlClient, organizationId: string, rows: TEventRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await tx.query<{ span_id: string }>(sql`
    INSERT INTO otel_span_events (organization_id, span_id, trace_id, event_key, name, time, attributes, body, seq)
    SELECT ${organizationId}::uuid, r.span_id, r.trace_id, r.event_key, r.name, r.time, COALESCE(r.attributes, '{}'::jsonb), r.body, r.seq
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      span_id uuid, trace_id uuid, event_key text, name text, time timestamptz, attributes jsonb, body jsonb, seq integer)
    ORDER BY r.span_id, r.event_key
    ON CONFLICT (organization_id, span_id, event_key) DO NOTHING
    RETURNING span_id`);
  return [...new Set(inserted.map((r) => r.span_id))];
}

/** The stored events of the spans, in time order. */
export function selectEvents(db: SqlClient, organizationId: string, spanIds: string[]): Promise<TEventRow[]> {
  if (spanIds.length === 0) return Promise.resolve([]);
  return db.query<TEventRow>(sql`
    SELECT span_id, trace_id, event_key, name, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS time, attributes, body, seq
    FROM otel_span_events
    WHERE organization_id = ${organizationId}::uuid AND span_id = ANY(${uuidArray(spanIds)})
    ORDER BY time NULLS LAST, created_at, seq, event_key`);
}

export interface TStoredOtelSpan {
  id: string;
  name: string;
  raw_span: Record<string, unknown>;
  resource: Record<string, unknown> | null;
}

/** Native spans already stored, with their trace's resource attributes (to map them again). */
export function selectStoredOtelSpans(db: SqlClient, organizationId: string, spanIds: string[]): Promise<TStoredOtelSpan[]> {
  if (spanIds.length === 0) return Promise.resolve([]);
  return db.query<TStoredOtelSpan>(sql`
    SELECT s.id, s.name, s.raw_span, t.metadata->'otel.resource' AS resource
    FROM spans s JOIN traces t ON t.organization_id = s.organization_id AND t.id = s.trace_id
    WHERE s.organization_id = ${organizationId}::uuid AND s.id = ANY(${uuidArray(spanIds)})
      AND s.payload_type = 'otel' AND (s.raw_span -> 'otel') IS NOT NULL`);
}
