// Alert rules (docs/alerts.md, "Rules"): created, changed, deleted and restored as versions, each saying who made
// it, and each recorded in the audit log in the same transaction. The webhook secret is answered only when it is
// made (on creation or rotation); versions never keep it.
import { randomBytes } from "node:crypto";
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import type { Database, DbClient } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { JobClient } from "../../jobs/queue.ts";
import * as q from "./alerts.queries.ts";
import { alertQueuesFromEnv } from "./alerts.queue.ts";
import { recordTransition } from "./evaluate.service.ts";
import { definitionIssues, type TAlertDefinition, type TAlertRule, type TAlertRuleCreate, type TAlertRuleUpdate } from "./alerts.schemas.ts";

const newSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

export function toAlertRule(r: q.TRuleRow): TAlertRule {
  return {
    id: r.id,
    version: r.version,
    name: r.name,
    kind: r.kind,
    traceFunctionKey: r.traceFunctionKey,
    graderId: r.graderId,
    threshold: r.threshold,
    windowMinutes: r.windowMinutes,
    webhookUrl: r.webhookUrl,
    enabled: r.enabled,
    state: r.state,
    episode: r.episode,
    lastValue: r.lastValue,
    lastEvaluatedAt: r.lastEvaluatedAt?.toISOString() ?? null,
    stateChangedAt: r.stateChangedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    changedAt: r.changedAt.toISOString(),
    changedByUserId: r.changedByUserId,
  };
}

const definitionOf = (r: q.TRuleRow): TAlertDefinition => ({
  name: r.name,
  kind: r.kind,
  traceFunctionKey: r.traceFunctionKey,
  graderId: r.graderId,
  threshold: r.threshold,
  windowMinutes: r.windowMinutes,
  webhookUrl: r.webhookUrl,
  enabled: r.enabled,
  deleted: r.deleted,
});

/**
 * A definition's checks across fields, and its grader: a mean_score rule names a grader of the organization (another
 * organization's or an unknown one is a 404) that records a score (400 otherwise).
 */
async function checkDefinition(db: DbClient, organizationId: string, def: TAlertDefinition) {
  const issues = definitionIssues(def);
  if (issues.length > 0) throw new AppError("validation_failed", issues[0]!.message, { issues });
  if (def.graderId === null) return;
  const type = await q.selectGraderOutputType(db, organizationId, def.graderId);
  if (type === null) throw notFound(`Grader ${def.graderId}`);
  if (type !== "score") {
    const message = "the grader records no score: give it a score output (docs/graders.md, \"Scores and categories\")";
    throw new AppError("validation_failed", message, { issues: [{ path: "graderId", message }] });
  }
}

/** What changed, for the version list ("threshold 0.9 → 0.8"). */
function describe(before: TAlertDefinition, after: TAlertDefinition): string {
  const keys = Object.keys(after) as Array<keyof TAlertDefinition>;
  const changed = keys.filter((k) => before[k] !== after[k]).map((k) => `${k} ${String(before[k])} → ${String(after[k])}`);
  return changed.length ? changed.join(", ") : "No change";
}


async function writeVersion(tx: DbClient, organizationId: string, ruleId: string, actor: TAuditActor, version: number, definition: TAlertDefinition, summary: string, at: Date) {
  await q.insertRuleVersion(tx, organizationId, ruleId, { version, definition, summary, changedByUserId: actor.userId, changedVia: actor.via, changedAt: at });
}

export async function findAlertRules(db: DbClient, organizationId: string): Promise<TAlertRule[]> {
  return (await q.selectRules(db, organizationId)).map(toAlertRule);
}

/** A rule with its versions, latest events and delivery attempts; a deleted or another organization's rule is a 404. */
export async function getAlertRule(db: DbClient, organizationId: string, id: string) {
  const row = await q.selectRule(db, organizationId, id);
  if (!row || row.deleted) throw notFound("Alert rule");
  const [versions, events, deliveries] = await Promise.all([
    q.selectRuleVersions(db, organizationId, id),
    q.selectEvents(db, organizationId, id, 50),
    q.selectDeliveries(db, organizationId, id, 100),
  ]);
  return {
    rule: toAlertRule(row),
    versions: versions.map((v) => ({ ...v, definition: { ...v.definition, graderId: v.definition.graderId ?? null }, changedAt: new Date(v.changedAt).toISOString() })),
    events: events.map((e) => ({ id: e.id, episode: e.episode, kind: e.kind, value: e.value, threshold: e.threshold, at: new Date(e.at).toISOString() })),
    deliveries: deliveries.map((d) => ({ ...d, at: new Date(d.at).toISOString() })),
  };
}

export async function createAlertRule(db: Database, organizationId: string, actor: TAuditActor, input: TAlertRuleCreate) {
  const id = newId();
  const secret = newSecret();
  const at = new Date();
  const def: TAlertDefinition = { ...input, deleted: false };
  await checkDefinition(db, organizationId, def);
  return db.transaction(async (tx) => {
    await q.insertRule(tx, organizationId, id, def, secret, actor.userId, at);
    await writeVersion(tx, organizationId, id, actor, 1, def, "Created", at);
    await recordAuditEvents(tx, organizationId, actor, [{ kind: "alert.created", targetType: "alert_rule", targetId: id, before: null, after: { ...def, version: 1 } }]);
    const row = (await q.selectRule(tx, organizationId, id))!;
    return { rule: toAlertRule(row), secret };
  });
}

/**
 * Writes `next` as the rule's next version (nothing when it changes nothing and no secret is made). A firing rule
 * that is disabled or deleted resolves in the same transaction, so its receiver is never left with an open episode.
 */
async function writeNext(tx: DbClient, jobs: JobClient, organizationId: string, actor: TAuditActor, current: q.TRuleRow, next: TAlertDefinition, opts: { rotate: boolean; kind: string; summary?: string }) {
  const before = definitionOf(current);
  const changes = describe(before, next);
  if (changes === "No change" && !opts.rotate) return { rule: toAlertRule(current), secret: null };
  const secret = opts.rotate ? newSecret() : current.secret;
  const version = current.version + 1;
  const at = new Date();
  const summary = opts.summary ?? (opts.rotate ? (changes === "No change" ? "Secret rotated" : `${changes}; secret rotated`) : changes);
  await q.updateRule(tx, organizationId, current.id, version, next, secret, actor.userId, at);
  if (current.state === "firing" && (!next.enabled || next.deleted)) await recordTransition(tx, jobs, current, "resolved", null, at);
  await writeVersion(tx, organizationId, current.id, actor, version, next, summary, at);
  await recordAuditEvents(tx, organizationId, actor, [{
    kind: opts.kind, targetType: "alert_rule", targetId: current.id,
    before: { ...before, version: current.version }, after: { ...next, version, ...(opts.rotate ? { secretRotated: true } : {}) },
  }]);
  const row = (await q.selectRule(tx, organizationId, current.id))!;
  return { rule: toAlertRule(row), secret: opts.rotate ? secret : null };
}

async function lockLive(tx: DbClient, organizationId: string, id: string) {
  const current = await q.lockRule(tx, organizationId, id);
  if (!current || current.deleted) throw notFound("Alert rule");
  return current;
}

export async function updateAlertRule(db: Database, organizationId: string, actor: TAuditActor, id: string, input: TAlertRuleUpdate) {
  const jobs = await alertQueuesFromEnv(db);
  return db.transaction(async (tx) => {
    const current = await lockLive(tx, organizationId, id);
    const { rotateSecret, ...fields } = input;
    const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<TAlertDefinition>;
    const next = { ...definitionOf(current), ...defined };
    await checkDefinition(tx, organizationId, next);
    return writeNext(tx, jobs, organizationId, actor, current, next, { rotate: rotateSecret === true, kind: "alert.updated" });
  });
}

/** Deletes a rule: a new version marked deleted; restoring an earlier version brings it back. */
export async function deleteAlertRule(db: Database, organizationId: string, actor: TAuditActor, id: string): Promise<void> {
  const jobs = await alertQueuesFromEnv(db);
  await db.transaction(async (tx) => {
    const current = await lockLive(tx, organizationId, id);
    await writeNext(tx, jobs, organizationId, actor, current, { ...definitionOf(current), deleted: true }, { rotate: false, kind: "alert.deleted", summary: "Deleted" });
  });
}

/** Makes an earlier version current again as a new version (the undo of a change or a deletion); the secret stays. */
export async function restoreAlertRule(db: Database, organizationId: string, actor: TAuditActor, id: string, version: number) {
  const jobs = await alertQueuesFromEnv(db);
  return db.transaction(async (tx) => {
    const current = await q.lockRule(tx, organizationId, id);
    if (!current) throw notFound("Alert rule");
    const target = (await q.selectRuleVersions(tx, organizationId, id)).find((v) => v.version === version);
    if (!target || target.definition.deleted) throw notFound(`Version ${version} of alert rule ${id}`);
    return writeNext(tx, jobs, organizationId, actor, current, { ...target.definition, graderId: target.definition.graderId ?? null, deleted: false }, { rotate: false, kind: "alert.restored", summary: `Restored version ${version}` });
  });
}
