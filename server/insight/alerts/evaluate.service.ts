// Evaluating the alert rules (docs/alerts.md, "Evaluation"). Each rule is measured, then its state changes under
// its row lock: ok → firing opens a new episode, firing → ok resolves it. The event is unique per (rule, episode,
// kind) and its delivery job is inserted in the same transaction, so evaluators on several instances, even at the
// same moment, fire an episode once and send each event once.
import type { Database, DbClient } from "../../db/client.ts";
import type { JobClient } from "../../jobs/queue.ts";
import { logger } from "../../logger.ts";
import { newId } from "../../ids.ts";
import * as q from "./alerts.queries.ts";
import { alertQueuesFromEnv, DELIVERY_QUEUE, type TDeliveryJob } from "./alerts.queue.ts";
import type { TAlertWebhookBody } from "./alerts.schemas.ts";
import { measureRule, type TMeasured } from "./measure.ts";

export interface TEvaluation {
  rules: number;
  fired: number;
  resolved: number;
}

function webhookBody(rule: q.TRuleRow, eventId: string, kind: "firing" | "resolved", episode: number, value: number | null, at: Date): TAlertWebhookBody {
  return {
    event: kind,
    eventId,
    organizationId: rule.organizationId,
    rule: { id: rule.id, name: rule.name, kind: rule.kind, traceFunctionKey: rule.traceFunctionKey, graderId: rule.graderId, threshold: rule.threshold, windowMinutes: rule.windowMinutes },
    episode,
    value,
    at: at.toISOString(),
  };
}

/**
 * Records a transition of the locked rule: its state, the event (unless the episode has one of its kind) and the
 * event's delivery job, all in the caller's transaction. True when this call recorded the event.
 */
export async function recordTransition(tx: DbClient, jobs: JobClient, rule: q.TRuleRow, kind: "firing" | "resolved", value: number | null, now: Date): Promise<boolean> {
  const episode = kind === "firing" ? rule.episode + 1 : rule.episode;
  const id = newId();
  const body = webhookBody(rule, id, kind, episode, value, now);
  const inserted = await q.insertEvent(tx, rule.organizationId, { id, ruleId: rule.id, episode, kind, value, threshold: rule.threshold, at: now, body });
  await q.updateRuleState(tx, rule.organizationId, rule.id, kind === "firing" ? "firing" : "ok", episode, value, now);
  if (inserted) await jobs.insert<TDeliveryJob>(DELIVERY_QUEUE, [{ id, data: { organizationId: rule.organizationId, eventId: id } }], tx);
  return inserted;
}

/** The transition a measurement asks of the locked rule, or null. */
async function transition(tx: DbClient, jobs: JobClient, rule: q.TRuleRow, m: TMeasured, now: Date): Promise<"fired" | "resolved" | null> {
  const kind = rule.state === "ok" && m.breached ? "firing" : rule.state === "firing" && !m.breached && m.value !== null ? "resolved" : null;
  if (kind === null) {
    await q.updateRuleEvaluated(tx, rule.organizationId, rule.id, m.value, now);
    return null;
  }
  if (!(await recordTransition(tx, jobs, rule, kind, m.value, now))) return null;
  return kind === "firing" ? "fired" : "resolved";
}

/** Measures one rule and applies its transition; a rule changed or disabled meanwhile is left for the next run. */
export async function evaluateRule(db: Database, jobs: JobClient, organizationId: string, id: string, now: Date) {
  const seen = await q.selectRule(db, organizationId, id);
  if (!seen || !seen.enabled || seen.deleted) return null;
  const measured = await measureRule(db, seen, now);
  return db.transaction(async (tx) => {
    const rule = await q.lockRule(tx, organizationId, id);
    if (!rule || !rule.enabled || rule.deleted || rule.version !== seen.version) return null;
    return transition(tx, jobs, rule, measured, now);
  });
}

/**
 * One evaluation of every enabled rule of every organization (or of one: the console's "Check now"); a rule that
 * fails is logged and the rest go on.
 */
export async function evaluateAlerts(db: Database, jobs: JobClient, now = new Date(), organizationId?: string): Promise<TEvaluation> {
  const rules = await q.selectEnabledRules(db, organizationId);
  const result: TEvaluation = { rules: rules.length, fired: 0, resolved: 0 };
  for (const r of rules) {
    try {
      const outcome = await evaluateRule(db, jobs, r.organizationId, r.id, now);
      if (outcome) result[outcome] += 1;
    } catch (error) {
      logger.error("an alert rule could not be evaluated", { organizationId: r.organizationId, ruleId: r.id, error });
    }
  }
  return result;
}

/** Evaluates one organization's rules now, rather than at the schedule's next minute. */
export async function checkAlertsNow(db: Database, organizationId: string): Promise<TEvaluation> {
  return evaluateAlerts(db, await alertQueuesFromEnv(db), new Date(), organizationId);
}
