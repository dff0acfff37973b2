// Which traces a grader grades online (docs/graders.md, "Online evaluation"): the SQL condition of its
// `online` settings, shared by live grading (the completion dispatcher) and backfills, so both decide alike.
// Sampling hashes the trace id (md5, whose first 32 bits pick one of 10,000 buckets): every instance, every
// retry and a backfill make the same decision for a trace, and md5 is the same function on PGlite, PostgreSQL
// and Citus. sampledBucket in online-sampling.ts is the same hash in JavaScript.
import type { DbClient } from "../db/client.ts";
import { sql, uuidArray, type Sql } from "../db/sql.ts";

/**
 * True when trace `t` (an alias with id, status, metadata) of the organization passes the online settings
 * `settings` (a jsonb expression, typically `g.config->'online'`; NULL passes everything).
 */
export function onlineSettingsMatch(organizationId: string, t: Sql, settings: Sql): Sql {
  const filter = sql`(${settings}->'filter')`;
  return sql`(${settings} IS NULL OR (
    (${settings}->'sampleRate' IS NULL
      OR ('x' || substr(md5(${t}.id::text), 1, 8))::bit(32)::bigint % 10000 < round((${settings}->>'sampleRate')::numeric * 100))
    AND (${filter}->'metadata' IS NULL OR ${t}.metadata @> (${filter}->'metadata'))
    AND (${filter}->'tags' IS NULL OR (jsonb_typeof(${t}.metadata->'tags') = 'array' AND ${t}.metadata->'tags' @> (${filter}->'tags')))
    AND (${filter}->>'status' IS NULL OR ${t}.status = ${filter}->>'status')
    AND (${filter}->>'model' IS NULL OR EXISTS (
      SELECT 1 FROM spans sp WHERE sp.organization_id = ${organizationId}::uuid AND sp.trace_id = ${t}.id AND sp.model = ${filter}->>'model'))))`;
}

/**
 * Of the (trace, grader) pairs of one organization, those whose grader's online settings let the trace in, as
 * "traceId:graderId" keys. One statement over the organization's rows (routed to one node on Citus).
 */
export async function selectOnlinePasses(db: DbClient, organizationId: string, pairs: { traceId: string; graderId: string }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db.sql.query<{ key: string }>(sql`
    SELECT t.id::text || ':' || g.id::text AS key
    FROM traces t JOIN graders g ON g.organization_id = t.organization_id
    WHERE t.organization_id = ${organizationId}::uuid AND g.organization_id = ${organizationId}::uuid
      AND t.id = ANY(${uuidArray([...new Set(pairs.map((p) => p.traceId))])}) AND g.id = ANY(${uuidArray([...new Set(pairs.map((p) => p.graderId))])})
      AND ${onlineSettingsMatch(organizationId, sql`t`, sql`(g.config->'online')`)}`);
  return new Set(rows.map((r) => r.key));
}
