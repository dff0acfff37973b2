// The only database access of alerts (docs/alerts.md): rules (current row and versions), their events and
// webhook deliveries. Every statement names one organization, but the evaluator's list of rules to evaluate.
import type { DbClient } from "../../db/client.ts";
import { empty, sql } from "../../db/sql.ts";
import type { TAlertDefinition, TAlertKind } from "./alerts.schemas.ts";

export interface TRuleRow {
  organizationId: string;
  id: string;
  version: number;
  name: string;
  kind: TAlertKind;
  traceFunctionKey: string | null;
  graderId: string | null;
  threshold: number;
  windowMinutes: number;
  webhookUrl: string;
  secret: string;
  enabled: boolean;
  deleted: boolean;
  state: "ok" | "firing";
  episode: number;
  lastValue: number | null;
  lastEvaluatedAt: Date | null;
  stateChangedAt: Date | null;
  createdAt: Date;
  changedAt: Date;
  changedByUserId: string | null;
}

const RULE_COLUMNS = sql`organization_id::text AS "organizationId", id::text AS id, version, name, kind,
  trace_function_key AS "traceFunctionKey", grader_id::text AS "graderId", threshold, window_minutes AS "windowMinutes", webhook_url AS "webhookUrl",
  secret, enabled, deleted, state, episode, last_value AS "lastValue", last_evaluated_at AS "lastEvaluatedAt",
  state_changed_at AS "stateChangedAt", created_at AS "createdAt", changed_at AS "changedAt",
  changed_by_user_id::text AS "changedByUserId"`;

/** The organization's rules that are not deleted, by name. */
export function selectRules(db: DbClient, organizationId: string) {
  return db.sql.query<TRuleRow>(sql`
    SELECT ${RULE_COLUMNS} FROM alert_rules
    WHERE organization_id = ${organizationId}::uuid AND NOT deleted ORDER BY name, id`);
}

/** One rule, deleted or not. */
export async function selectRule(db: DbClient, organizationId: string, id: string): Promise<TRuleRow | null> {
  const rows = await db.sql.query<TRuleRow>(sql`
    SELECT ${RULE_COLUMNS} FROM alert_rules WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
  return rows[0] ?? null;
}

/** One rule, row-locked until the transaction ends: its changes and state transitions happen one at a time. */
export async function lockRule(db: DbClient, organizationId: string, id: string): Promise<TRuleRow | null> {
  const rows = await db.sql.query<TRuleRow>(sql`
    SELECT ${RULE_COLUMNS} FROM alert_rules WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return rows[0] ?? null;
}

/** Every enabled rule of every organization (or of one): what one evaluation goes through. */
export function selectEnabledRules(db: DbClient, organizationId?: string) {
  return db.sql.query<{ organizationId: string; id: string }>(sql`
    SELECT organization_id::text AS "organizationId", id::text AS id FROM alert_rules
    WHERE enabled AND NOT deleted ${organizationId === undefined ? empty : sql`AND organization_id = ${organizationId}::uuid`}
    ORDER BY organization_id, id`);
}

export async function insertRule(db: DbClient, organizationId: string, id: string, def: TAlertDefinition, secret: string, userId: string | null, at: Date) {
  await db.sql.query(sql`
    INSERT INTO alert_rules (organization_id, id, version, name, kind, trace_function_key, grader_id, threshold, window_minutes,
      webhook_url, secret, enabled, deleted, created_at, changed_at, changed_by_user_id)
    VALUES (${organizationId}::uuid, ${id}::uuid, 1, ${def.name}, ${def.kind}, ${def.traceFunctionKey}, ${def.graderId}::uuid, ${def.threshold}::float8,
      ${def.windowMinutes}::int, ${def.webhookUrl}, ${secret}, ${def.enabled}, ${def.deleted}, ${at.toISOString()}::timestamptz,
      ${at.toISOString()}::timestamptz, ${userId}::uuid)`);
}

/** Writes a new definition as `version`; the state stays (the next evaluation measures the new definition). */
export async function updateRule(db: DbClient, organizationId: string, id: string, version: number, def: TAlertDefinition, secret: string, userId: string | null, at: Date) {
  await db.sql.query(sql`
    UPDATE alert_rules SET version = ${version}::int, name = ${def.name}, kind = ${def.kind}, trace_function_key = ${def.traceFunctionKey},
      grader_id = ${def.graderId}::uuid,
      threshold = ${def.threshold}::float8, window_minutes = ${def.windowMinutes}::int, webhook_url = ${def.webhookUrl},
      secret = ${secret}, enabled = ${def.enabled}, deleted = ${def.deleted}, changed_at = ${at.toISOString()}::timestamptz,
      changed_by_user_id = ${userId}::uuid
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** The output type a grader of the organization declares (`config.output.type`; "passFail" when none), or null when it has none. */
export async function selectGraderOutputType(db: DbClient, organizationId: string, graderId: string): Promise<string | null> {
  const rows = await db.sql.query<{ type: string }>(sql`
    SELECT COALESCE(config->'output'->>'type', 'passFail') AS type FROM graders
    WHERE organization_id = ${organizationId}::uuid AND id = ${graderId}::uuid`);
  return rows[0]?.type ?? null;
}

export interface TVersionRow {
  version: number;
  definition: TAlertDefinition;
  summary: string;
  changedByUserId: string | null;
  changedVia: string;
  changedAt: Date;
}

export async function insertRuleVersion(db: DbClient, organizationId: string, ruleId: string, v: TVersionRow) {
  await db.sql.query(sql`
    INSERT INTO alert_rule_versions (organization_id, rule_id, version, definition, summary, changed_by_user_id, changed_via, changed_at)
    VALUES (${organizationId}::uuid, ${ruleId}::uuid, ${v.version}::int, ${JSON.stringify(v.definition)}::jsonb, ${v.summary},
      ${v.changedByUserId}::uuid, ${v.changedVia}, ${v.changedAt.toISOString()}::timestamptz)`);
}

/** Every version of a rule, newest first. */
export function selectRuleVersions(db: DbClient, organizationId: string, ruleId: string) {
  return db.sql.query<TVersionRow>(sql`
    SELECT version, definition, summary, changed_by_user_id::text AS "changedByUserId", changed_via AS "changedVia", changed_at AS "changedAt"
    FROM alert_rule_versions WHERE organization_id = ${organizationId}::uuid AND rule_id = ${ruleId}::uuid ORDER BY version DESC`);
}

// ─── Evaluation ─────────────────────────────────────────────────────────────────────────────────────────────

/** Records an evaluation that changed no state. */
export async function updateRuleEvaluated(db: DbClient, organizationId: string, id: string, value: number | null, at: Date) {
  await db.sql.query(sql`
    UPDATE alert_rules SET last_value = ${value}::float8, last_evaluated_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** A transition: firing (a new episode) or resolved (the same episode), under the rule's row lock. */
export async function updateRuleState(db: DbClient, organizationId: string, id: string, state: "ok" | "firing", episode: number, value: number | null, at: Date) {
  await db.sql.query(sql`
    UPDATE alert_rules SET state = ${state}, episode = ${episode}::int, last_value = ${value}::float8,
      last_evaluated_at = ${at.toISOString()}::timestamptz, state_changed_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

export interface TEventInsert {
  id: string;
  ruleId: string;
  episode: number;
  kind: "firing" | "resolved";
  value: number | null;
  threshold: number;
  at: Date;
  body: unknown;
}

/** Inserts an event unless the episode already has one of its kind; true when this call inserted it. */
export async function insertEvent(db: DbClient, organizationId: string, e: TEventInsert): Promise<boolean> {
  const rows = await db.sql.query<{ id: string }>(sql`
    INSERT INTO alert_events (organization_id, id, rule_id, episode, kind, value, threshold, at, body)
    VALUES (${organizationId}::uuid, ${e.id}::uuid, ${e.ruleId}::uuid, ${e.episode}::int, ${e.kind}, ${e.value}::float8,
      ${e.threshold}::float8, ${e.at.toISOString()}::timestamptz, ${JSON.stringify(e.body)}::jsonb)
    ON CONFLICT (organization_id, rule_id, episode, kind) DO NOTHING
    RETURNING id::text AS id`);
  return rows.length === 1;
}

export interface TEventRow {
  id: string;
  ruleId: string;
  episode: number;
  kind: "firing" | "resolved";
  value: number | null;
  threshold: number;
  at: Date;
}

const EVENT_COLUMNS = sql`id::text AS id, rule_id::text AS "ruleId", episode, kind, value, threshold, at`;

/** A rule's latest events, newest first. */
export function selectEvents(db: DbClient, organizationId: string, ruleId: string, limit: number) {
  return db.sql.query<TEventRow>(sql`
    SELECT ${EVENT_COLUMNS} FROM alert_events
    WHERE organization_id = ${organizationId}::uuid AND rule_id = ${ruleId}::uuid ORDER BY at DESC, episode DESC LIMIT ${limit}`);
}

/** What a delivery sends: the event's body, its rule's webhook and secret; where it stands in its rule's order. */
export async function selectEventForDelivery(db: DbClient, organizationId: string, eventId: string) {
  const rows = await db.sql.query<{ body: unknown; ruleId: string; episode: number; kind: "firing" | "resolved"; settled: boolean; webhookUrl: string; secret: string }>(sql`
    SELECT e.body, e.rule_id::text AS "ruleId", e.episode, e.kind, e.settled_at IS NOT NULL AS settled, r.webhook_url AS "webhookUrl", r.secret
    FROM alert_events e JOIN alert_rules r ON r.organization_id = e.organization_id AND r.id = e.rule_id
    WHERE e.organization_id = ${organizationId}::uuid AND e.id = ${eventId}::uuid`);
  return rows[0] ?? null;
}

/**
 * The earliest event of the rule before (episode, kind) whose delivery is not settled, or null: an event waits for
 * it (episodes in order; in an episode, the firing before the resolve).
 */
export async function selectUnsettledEarlierEvent(db: DbClient, organizationId: string, ruleId: string, episode: number, kind: "firing" | "resolved") {
  const rows = await db.sql.query<{ id: string }>(sql`
    SELECT id::text AS id FROM alert_events
    WHERE organization_id = ${organizationId}::uuid AND rule_id = ${ruleId}::uuid AND settled_at IS NULL
      AND (episode < ${episode}::int ${kind === "resolved" ? sql`OR (episode = ${episode}::int AND kind = 'firing')` : empty})
    ORDER BY episode, kind LIMIT 1`);
  return rows[0]?.id ?? null;
}

/** Marks an event's delivery settled (delivered, or given up after its last attempt); the next event may go. */
export async function settleEvent(db: DbClient, organizationId: string, eventId: string, at: Date) {
  await db.sql.query(sql`
    UPDATE alert_events SET settled_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${organizationId}::uuid AND id = ${eventId}::uuid AND settled_at IS NULL`);
}

// ─── Deliveries ─────────────────────────────────────────────────────────────────────────────────────────────

export interface TDeliveryRow {
  id: string;
  eventId: string;
  attempt: number;
  status: "delivered" | "failed";
  responseCode: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

export async function insertDelivery(db: DbClient, organizationId: string, ruleId: string, d: TDeliveryRow) {
  await db.sql.query(sql`
    INSERT INTO alert_deliveries (organization_id, id, event_id, rule_id, attempt, status, response_code, error, duration_ms, at)
    VALUES (${organizationId}::uuid, ${d.id}::uuid, ${d.eventId}::uuid, ${ruleId}::uuid, ${d.attempt}::int, ${d.status},
      ${d.responseCode}::int, ${d.error}, ${d.durationMs}::int, ${d.at.toISOString()}::timestamptz)`);
}

/** A rule's latest delivery attempts, newest first. */
export function selectDeliveries(db: DbClient, organizationId: string, ruleId: string, limit: number) {
  return db.sql.query<TDeliveryRow>(sql`
    SELECT id::text AS id, event_id::text AS "eventId", attempt, status, response_code AS "responseCode", error,
      duration_ms AS "durationMs", at
    FROM alert_deliveries WHERE organization_id = ${organizationId}::uuid AND rule_id = ${ruleId}::uuid
    ORDER BY at DESC, attempt DESC LIMIT ${limit}`);
}
