// The only database access of cost (docs/cost.md): the organization's model prices (one row per version), the
// spans no price matched, and the recomputation of span and trace costs over a time range. Every query filters
// by organization.
import { markTracesChanged } from "../dashboard/rollups/rollups.queries.ts";
import type { DbClient } from "../../db/client.ts";
import { sql, uuidArray } from "../../db/sql.ts";

export interface TPriceVersionRow {
  id: string;
  version: number;
  modelPattern: string;
  provider: string | null;
  inputPerMtok: string;
  outputPerMtok: string;
  cachedInputPerMtok: string | null;
  reasoningPerMtok: string | null;
  effectiveFrom: string;
  deleted: boolean;
  changedByUserId: string | null;
  changedAt: Date;
  supersededAt: Date | null;
}

const PRICE_COLUMNS = sql`id::text AS id, version, model_pattern AS "modelPattern", provider,
  input_per_mtok::text AS "inputPerMtok", output_per_mtok::text AS "outputPerMtok",
  cached_input_per_mtok::text AS "cachedInputPerMtok", reasoning_per_mtok::text AS "reasoningPerMtok",
  to_char(effective_from, 'YYYY-MM-DD') AS "effectiveFrom", deleted, changed_by_user_id::text AS "changedByUserId",
  changed_at AS "changedAt", superseded_at AS "supersededAt"`;

/** The current version of each of the organization's prices that is not deleted. */
export function selectCurrentPrices(db: DbClient, organizationId: string) {
  return db.sql.query<TPriceVersionRow>(sql`
    SELECT ${PRICE_COLUMNS} FROM model_prices
    WHERE organization_id = ${organizationId}::uuid AND superseded_at IS NULL AND NOT deleted
    ORDER BY model_pattern, effective_from`);
}

/** Every version of one price, newest first. */
export function selectPriceVersions(db: DbClient, organizationId: string, id: string) {
  return db.sql.query<TPriceVersionRow>(sql`
    SELECT ${PRICE_COLUMNS} FROM model_prices
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid
    ORDER BY version DESC`);
}

/** The current version of a price, row-locked until the transaction ends (a change supersedes it once). */
export async function lockCurrentPrice(db: DbClient, organizationId: string, id: string): Promise<TPriceVersionRow | null> {
  const rows = await db.sql.query<TPriceVersionRow>(sql`
    SELECT ${PRICE_COLUMNS} FROM model_prices
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid AND superseded_at IS NULL
    FOR UPDATE`);
  return rows[0] ?? null;
}

export interface TPriceValues {
  modelPattern: string;
  provider: string | null;
  inputPerMtok: number;
  outputPerMtok: number;
  cachedInputPerMtok: number | null;
  reasoningPerMtok: number | null;
  effectiveFrom: string;
  deleted: boolean;
}

/** Marks the current version replaced and writes the next one, in the caller's transaction. */
export async function insertPriceVersion(
  db: DbClient,
  organizationId: string,
  id: string,
  version: number,
  v: TPriceValues,
  userId: string | null,
  at: Date,
): Promise<void> {
  const when = at.toISOString();
  await db.sql.query(sql`
    UPDATE model_prices SET superseded_at = ${when}::timestamptz
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid AND superseded_at IS NULL`);
  await db.sql.query(sql`
    INSERT INTO model_prices (organization_id, id, version, model_pattern, provider, input_per_mtok, output_per_mtok,
      cached_input_per_mtok, reasoning_per_mtok, effective_from, deleted, changed_by_user_id, changed_at)
    VALUES (${organizationId}::uuid, ${id}::uuid, ${version}, ${v.modelPattern}, ${v.provider}, ${v.inputPerMtok}::numeric,
      ${v.outputPerMtok}::numeric, ${v.cachedInputPerMtok}::numeric, ${v.reasoningPerMtok}::numeric,
      ${v.effectiveFrom}::date, ${v.deleted}, ${userId}::uuid, ${when}::timestamptz)`);
}

// ─── Spans no price matched ─────────────────────────────────────────────────────────────────────────────────

/** A span with a model and a token count but no cost: no price matched it (docs/cost.md, "Unpriced spans"). */
const UNPRICED = sql`s.model IS NOT NULL AND s.cost_usd IS NULL
  AND (s.input_tokens IS NOT NULL OR s.output_tokens IS NOT NULL OR s.total_tokens IS NOT NULL)`;

export interface TUnpricedModelRow {
  model: string;
  spans: number;
  traces: number;
  firstSeen: Date | null;
  lastSeen: Date | null;
}

/** Unpriced spans that started in [from, to), counted per model. */
export function selectUnpricedModels(db: DbClient, organizationId: string, from: Date, to: Date) {
  return db.sql.query<TUnpricedModelRow>(sql`
    SELECT s.model, count(*)::int AS spans, count(DISTINCT s.trace_id)::int AS traces,
      min(s.started_at) AS "firstSeen", max(s.started_at) AS "lastSeen"
    FROM spans s
    WHERE s.organization_id = ${organizationId}::uuid AND s.started_at >= ${from.toISOString()}::timestamptz
      AND s.started_at < ${to.toISOString()}::timestamptz AND ${UNPRICED}
    GROUP BY s.model ORDER BY count(*) DESC, s.model LIMIT 500`);
}

export interface TUnpricedSpanRow {
  spanId: string;
  traceId: string;
  name: string;
  model: string;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  startedAt: Date | null;
}

/** Unpriced spans that started in [from, to), newest first, optionally of one model. */
export function selectUnpricedSpans(db: DbClient, organizationId: string, from: Date, to: Date, model: string | undefined, limit: number) {
  return db.sql.query<TUnpricedSpanRow>(sql`
    SELECT s.id::text AS "spanId", s.trace_id::text AS "traceId", s.name, s.model, s.input_tokens AS "inputTokens",
      s.output_tokens AS "outputTokens", s.total_tokens AS "totalTokens", s.started_at AS "startedAt"
    FROM spans s
    WHERE s.organization_id = ${organizationId}::uuid AND s.started_at >= ${from.toISOString()}::timestamptz
      AND s.started_at < ${to.toISOString()}::timestamptz AND ${UNPRICED}
      AND (${model ?? null}::text IS NULL OR s.model = ${model ?? null})
    ORDER BY s.started_at DESC, s.id LIMIT ${limit}`);
}

// ─── Recomputation ──────────────────────────────────────────────────────────────────────────────────────────

export interface TRecomputeRow {
  id: string;
  rangeFrom: Date;
  rangeTo: Date;
  status: string;
  tracesTotal: number;
  tracesDone: number;
  spansPriced: number;
  spansUnpriced: number;
  requestedByUserId: string | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const RECOMPUTE_COLUMNS = sql`id::text AS id, range_from AS "rangeFrom", range_to AS "rangeTo", status,
  traces_total AS "tracesTotal", traces_done AS "tracesDone", spans_priced AS "spansPriced",
  spans_unpriced AS "spansUnpriced", requested_by_user_id::text AS "requestedByUserId", error,
  created_at AS "createdAt", finished_at AS "finishedAt"`;

/** A new recompute, with the count of traces that started in its range. */
export async function insertRecompute(db: DbClient, organizationId: string, id: string, from: Date, to: Date, userId: string | null, at: Date) {
  const rows = await db.sql.query<TRecomputeRow>(sql`
    INSERT INTO cost_recomputes (organization_id, id, range_from, range_to, traces_total, requested_by_user_id, created_at)
    SELECT ${organizationId}::uuid, ${id}::uuid, ${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz,
      (SELECT count(*)::int FROM traces WHERE organization_id = ${organizationId}::uuid AND NOT dropped
        AND started_at >= ${from.toISOString()}::timestamptz AND started_at < ${to.toISOString()}::timestamptz),
      ${userId}::uuid, ${at.toISOString()}::timestamptz
    RETURNING ${RECOMPUTE_COLUMNS}`);
  return rows[0]!;
}

export async function selectRecompute(db: DbClient, organizationId: string, id: string): Promise<TRecomputeRow | null> {
  const rows = await db.sql.query<TRecomputeRow>(sql`
    SELECT ${RECOMPUTE_COLUMNS} FROM cost_recomputes WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
  return rows[0] ?? null;
}

export function selectRecentRecomputes(db: DbClient, organizationId: string, limit: number) {
  return db.sql.query<TRecomputeRow>(sql`
    SELECT ${RECOMPUTE_COLUMNS} FROM cost_recomputes WHERE organization_id = ${organizationId}::uuid
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}

export interface TRecomputeProgress {
  status?: "running" | "done" | "failed";
  tracesDone?: number;
  spansPriced?: number;
  spansUnpriced?: number;
  error?: string | null;
  finishedAt?: Date | null;
}

/** Marks the recompute running from the start of its range again (a retried job counts afresh). */
export async function restartRecompute(db: DbClient, organizationId: string, id: string): Promise<void> {
  await db.sql.query(sql`
    UPDATE cost_recomputes SET status = 'running', traces_done = 0, spans_priced = 0, spans_unpriced = 0, error = NULL, finished_at = NULL
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** Adds to the recompute's counters and sets its status. */
export async function updateRecompute(db: DbClient, organizationId: string, id: string, p: TRecomputeProgress): Promise<void> {
  await db.sql.query(sql`
    UPDATE cost_recomputes SET
      status = COALESCE(${p.status ?? null}::text, status),
      traces_done = traces_done + ${p.tracesDone ?? 0}::int,
      spans_priced = spans_priced + ${p.spansPriced ?? 0}::int,
      spans_unpriced = spans_unpriced + ${p.spansUnpriced ?? 0}::int,
      error = COALESCE(${p.error ?? null}::text, error),
      finished_at = COALESCE(${p.finishedAt?.toISOString() ?? null}::timestamptz, finished_at)
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** One page of the range's traces, by (started_at, id) after the keyset position. */
export function selectTracePageInRange(db: DbClient, organizationId: string, from: Date, to: Date, after: { startedAt: string; id: string } | null, limit: number) {
  const afterStart = after?.startedAt ?? null;
  return db.sql.query<{ id: string; startedAt: string }>(sql`
    SELECT id::text AS id, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "startedAt"
    FROM traces
    WHERE organization_id = ${organizationId}::uuid AND NOT dropped
      AND started_at >= ${from.toISOString()}::timestamptz AND started_at < ${to.toISOString()}::timestamptz
      AND (${afterStart}::timestamptz IS NULL OR (started_at, id) > (${afterStart}::timestamptz, ${after?.id ?? null}::uuid))
    ORDER BY started_at, id LIMIT ${limit}`);
}

export interface TSpanUsageRow {
  id: string;
  model: string | null;
  input: number | null;
  output: number | null;
  cached: number | null;
  reasoning: number | null;
  total: number | null;
  startedAt: string | null;
  costUsd: string | null;
}

/** The spans with a model of the given traces, with what costs them. */
export function selectSpanUsage(db: DbClient, organizationId: string, traceIds: string[]) {
  return db.sql.query<TSpanUsageRow>(sql`
    SELECT s.id::text AS id, s.model, s.input_tokens AS input, s.output_tokens AS output, s.cached_tokens AS cached,
      s.reasoning_tokens AS reasoning, s.total_tokens AS total,
      to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "startedAt", s.cost_usd::text AS "costUsd"
    FROM spans s
    WHERE s.organization_id = ${organizationId}::uuid AND s.trace_id = ANY(${uuidArray(traceIds)}) AND s.model IS NOT NULL`);
}

/**
 * Writes the spans' new costs (only those that changed) and sets each trace's cost to the sum of its final
 * spans' costs, in the caller's transaction.
 */
export async function writeCosts(db: DbClient, organizationId: string, traceIds: string[], costs: Array<{ id: string; cost: number | null }>) {
  if (costs.length > 0) {
    await db.sql.query(sql`
      UPDATE spans s SET cost_usd = c.cost
      FROM json_to_recordset(${JSON.stringify(costs)}::json) AS c(id uuid, cost numeric)
      WHERE s.organization_id = ${organizationId}::uuid AND s.id = c.id AND s.cost_usd IS DISTINCT FROM c.cost`);
  }
  await db.sql.query(sql`
    UPDATE traces t SET cost_usd = k.cost
    FROM (
      SELECT w.id, (SELECT sum(s.cost_usd) FROM spans s
        WHERE s.organization_id = ${organizationId}::uuid AND s.trace_id = w.id AND s.is_final) AS cost
      FROM unnest(${uuidArray(traceIds)}) AS w(id)
    ) k
    WHERE t.organization_id = ${organizationId}::uuid AND t.id = k.id AND t.cost_usd IS DISTINCT FROM k.cost`);
  // After the writes, so that a job run that reads the mark sees the costs (docs/scaling.md, "Dashboard").
  await markTracesChanged(db, organizationId, traceIds);
}
