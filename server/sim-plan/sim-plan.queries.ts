// The only database access of the sim plan. Raw SQL: the lock test is a correlated NOT EXISTS over spans and
// the decisions are a set-based upsert, neither of which Prisma expresses. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { empty, join, raw, sql, type Sql } from "../db/sql.ts";
import { FRAMEWORK_SOURCE_PATTERN } from "../shared/instrumentation.ts";
import type { TSimPlanDecision } from "./sim-plan.schemas.ts";

const ROOT = raw(`s.parent_span_id IS NULL`);
// Empty origin fields mean "recorded before they existed" (docs/api/ingestion.md, "Span payload"): such spans resolve
// their instrumentation from their source, as the span reads do (server/shared/instrumentation.ts).
const FRAMEWORK = raw(
  `(NULLIF(s.instrumentation, '') NOT IN ('span', 'trace') OR (NULLIF(s.instrumentation, '') IS NULL AND s.source ~ '${FRAMEWORK_SOURCE_PATTERN}'))`,
);
const IMPORTED = raw(`s.payload_type <> 'sdk-function'`);
const SERVICE_NAME = raw(`(starts_with(d.name, 'reprise.') OR starts_with(d.name, 'bitfab.'))`);

/** Content-off decisions of nodes that no recorded span locks, for GET /sim-plan. */
export function selectContentOffNodes(db: DbClient, organizationId: string) {
  return db.sql.query<{ trace_function_key: string; name: string }>(sql`
    SELECT d.trace_function_key, d.name
    FROM sim_plan_decisions d
    WHERE d.organization_id = ${organizationId}::uuid
      AND NOT d.capture_content
      AND NOT ${SERVICE_NAME}
      AND NOT EXISTS (
        SELECT 1 FROM spans s
        WHERE s.organization_id = d.organization_id AND s.node_key = d.trace_function_key AND s.name = d.name
          AND (${ROOT} OR ${FRAMEWORK} OR ${IMPORTED}))
    ORDER BY d.trace_function_key, d.name`);
}

export interface NodeStatsRow {
  trace_function_key: string;
  name: string;
  span_count: number;
  content_off_count: number;
  root: boolean;
  framework: boolean;
  imported: boolean;
}

/** Per-node span counts and lock facts, for the given nodes or for every node (of one trace function). */
export function selectNodeStats(db: DbClient, organizationId: string, filter: { traceFunctionKey?: string; nodes?: Array<{ traceFunctionKey: string; name: string }> }) {
  const where: Sql[] = [sql`s.organization_id = ${organizationId}::uuid`, sql`s.node_key IS NOT NULL`];
  if (filter.traceFunctionKey !== undefined) where.push(sql`s.node_key = ${filter.traceFunctionKey}`);
  if (filter.nodes) {
    if (filter.nodes.length === 0) return Promise.resolve([] as NodeStatsRow[]);
    where.push(sql`(s.node_key, s.name) IN (${join(filter.nodes.map((n) => sql`(${n.traceFunctionKey}, ${n.name})`), ", ")})`);
  }
  return db.sql.query<NodeStatsRow>(sql`
    SELECT s.node_key AS trace_function_key, s.name,
      count(*)::int AS span_count,
      (count(*) FILTER (WHERE s.content_off_by_simulation_plan))::int AS content_off_count,
      COALESCE(bool_or(${ROOT}), false) AS root,
      COALESCE(bool_or(${FRAMEWORK}), false) AS framework,
      COALESCE(bool_or(${IMPORTED}), false) AS imported
    FROM spans s
    WHERE ${join(where, " AND ")}
    GROUP BY s.node_key, s.name`);
}

/** The stored decisions, each with who made it last (the user's name, else email; null for none) and when. */
export function selectDecisions(db: DbClient, organizationId: string, traceFunctionKey?: string) {
  const byKey = traceFunctionKey !== undefined ? sql`AND d.trace_function_key = ${traceFunctionKey}` : empty;
  return db.sql.query<{ trace_function_key: string; name: string; capture_content: boolean; decided_by: string | null; decided_at: Date | string }>(sql`
    SELECT d.trace_function_key, d.name, d.capture_content, COALESCE(NULLIF(u.name, ''), u.email) AS decided_by, d.updated_at AS decided_at
    FROM sim_plan_decisions d
    LEFT JOIN users u ON u.organization_id = d.organization_id AND u.id = d.updated_by_user_id
    WHERE d.organization_id = ${organizationId}::uuid ${byKey}`);
}

/** One multi-row upsert; the caller passes each node once. */
export async function upsertDecisions(db: DbClient, organizationId: string, userId: string | null, decisions: TSimPlanDecision[]) {
  if (decisions.length === 0) return;
  // The time is a parameter: Citus refuses now() inside ON CONFLICT … DO UPDATE (docs/operations.md, "Citus").
  const now = new Date().toISOString();
  const rows = decisions.map(
    (d) => sql`(${organizationId}::uuid, ${d.traceFunctionKey}, ${d.name}, ${d.captureContent}, ${userId}::uuid, ${now}::timestamptz)`,
  );
  await db.sql.query(sql`
    INSERT INTO sim_plan_decisions (organization_id, trace_function_key, name, capture_content, updated_by_user_id, updated_at)
    VALUES ${join(rows, ", ")}
    ON CONFLICT (organization_id, trace_function_key, name) DO UPDATE
      SET capture_content = EXCLUDED.capture_content, updated_by_user_id = EXCLUDED.updated_by_user_id, updated_at = EXCLUDED.updated_at`);
}

/** How many of the nodes' most recent spans the cascade starts from, so its cost stays bounded. */
export const CASCADE_SEED_SPANS = 1000;

/**
 * The nodes recorded beneath the given nodes: every (node key, name) of a span that descends, in a recent
 * recorded trace, from a span of one of them. Used to turn a subtree off with its top node.
 */
export function selectDescendantNodes(db: DbClient, organizationId: string, nodes: Array<{ traceFunctionKey: string; name: string }>) {
  if (nodes.length === 0) return Promise.resolve([] as Array<{ trace_function_key: string; name: string }>);
  return db.sql.query<{ trace_function_key: string; name: string }>(sql`
    WITH RECURSIVE tree AS (
      SELECT seed.trace_id, seed.id FROM (
        SELECT s.trace_id, s.id FROM spans s
        WHERE s.organization_id = ${organizationId}::uuid
          AND (s.node_key, s.name) IN (${join(nodes.map((n) => sql`(${n.traceFunctionKey}, ${n.name})`), ", ")})
        ORDER BY s.started_at DESC NULLS LAST
        LIMIT ${CASCADE_SEED_SPANS}) seed
      UNION
      SELECT c.trace_id, c.id FROM spans c
      JOIN tree p ON c.organization_id = ${organizationId}::uuid AND c.trace_id = p.trace_id AND c.parent_span_id = p.id
    )
    SELECT DISTINCT s.node_key AS trace_function_key, s.name
    FROM tree t JOIN spans s ON s.organization_id = ${organizationId}::uuid AND s.trace_id = t.trace_id AND s.id = t.id
    WHERE s.node_key IS NOT NULL
    ORDER BY 1, 2`);
}

/** How the nodes of one trace function were used in its `traceLimit` most recent traces (replays included). */
export function selectRecentNodeUsage(db: DbClient, organizationId: string, traceFunctionKey: string, traceLimit: number) {
  return db.sql.query<{ name: string; type: string; parent: string | null; calls: number; traces: number; content_off: number }>(sql`
    WITH recent AS (
      SELECT t.id FROM traces t
      WHERE t.organization_id = ${organizationId}::uuid AND t.trace_function_key = ${traceFunctionKey} AND NOT t.dropped
      ORDER BY COALESCE(t.started_at, t.created_at) DESC, t.id DESC
      LIMIT ${traceLimit}
    )
    SELECT s.name, mode() WITHIN GROUP (ORDER BY s.type) AS type, mode() WITHIN GROUP (ORDER BY p.name) AS parent,
      count(*)::int AS calls, count(DISTINCT s.trace_id)::int AS traces,
      (count(*) FILTER (WHERE s.content_off_by_simulation_plan))::int AS content_off
    FROM spans s
    JOIN recent r ON s.trace_id = r.id
    LEFT JOIN spans p ON p.organization_id = s.organization_id AND p.trace_id = s.trace_id AND p.id = s.parent_span_id
    WHERE s.organization_id = ${organizationId}::uuid AND s.node_key = ${traceFunctionKey}
    GROUP BY s.name
    ORDER BY min(s.started_at) NULLS LAST, s.name`);
}
