// People's grader labels (docs/api/labels.md, "POST /api/sdk/graderLabels"; docs/graders.md, "Scores and
// categories"): a person, or an agent through a user's key, records pass/fail, a score or a category on a grader
// for a trace. Each entry is checked against the grader's declared output, pass/fail derives from a threshold or
// passing categories where the grader sets one, the replaced label is kept in the history, and the batch is one
// transaction with its audit events; any bad entry writes nothing.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { deleteGraderLabelHistoryEntry, findLatestGraderLabelHistoryEntry, keepReplacedGraderLabel } from "../graders/grader-label-history.queries.ts";
import { checkOutcome, outputOf } from "../graders/grader-output.schemas.ts";
import { canonicalId, isUuid } from "../ids.ts";
import * as q from "./grader-labels.queries.ts";
import type { TGraderLabelWrite } from "./labels.schemas.ts";

export interface TGraderLabelActor extends TAuditActor {
  organizationId: string;
  userId: string;
  via: "console" | "rest" | "mcp";
}

const batchError = (i: number, field: string, message: string) =>
  new AppError("bad_request", `labels.${i}.${field}: ${message}; nothing was written.`, { issues: [{ path: `labels.${i}.${field}`, message }] });

const snapshot = (r: { label: boolean | null; score: number | null; category: string | null; source: string } | null) =>
  r ? { label: r.label, score: r.score, category: r.category, source: r.source } : null;

export async function saveGraderLabels(db: Database, actor: TGraderLabelActor, entries: TGraderLabelWrite[]) {
  const { organizationId } = actor;
  const rows = entries.map((e, i) => ({ ...e, i, traceId: canonicalId(organizationId, e.traceId) }));
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.traceId}/${r.graderId}`;
    if (seen.has(key)) throw batchError(r.i, "graderId", `names trace ${r.traceId} and grader ${r.graderId} a second time`);
    seen.add(key);
  }
  return db.transaction(async (tx) => {
    // Another organization's trace or grader is a 404, like a missing one.
    const traces = new Map((await q.findTracesForWrite(tx, organizationId, rows.map((r) => r.traceId).filter(isUuid))).map((t) => [t.id, t]));
    const graders = new Map((await q.findGradersForWrite(tx, organizationId, [...new Set(rows.map((r) => r.graderId))])).map((g) => [g.id, g]));
    const checked = rows.map((r) => {
      const trace = traces.get(r.traceId);
      if (!trace) throw notFound(`Trace ${entries[r.i].traceId}`);
      const grader = graders.get(r.graderId);
      if (!grader) throw notFound(`Grader ${r.graderId}`);
      if (grader.status !== "active") throw batchError(r.i, "graderId", `grader "${grader.name}" is archived`);
      if (trace.traceFunctionKey !== grader.traceFunctionKey) throw batchError(r.i, "graderId", `grader "${grader.name}" grades ${grader.traceFunctionKey}, not this trace's function`);
      const outcome = checkOutcome(outputOf(grader.config), r);
      if (!outcome.ok) throw batchError(r.i, outcome.path, outcome.message);
      return { ...r, grader, outcome: outcome.outcome };
    });
    const at = new Date();
    const changes = [];
    for (const r of checked) {
      const before = await q.lockCurrentGraderLabel(tx, organizationId, r.traceId, r.graderId);
      await q.upsertGraderLabel(tx, {
        organizationId, traceId: r.traceId, graderId: r.graderId, graderVersion: r.grader.version, ...r.outcome,
        labelReason: r.reason ?? null, source: "human", evaluatedAt: at, replacedAt: at, decidedBy: actor.userId, decidedVia: actor.via,
      });
      changes.push({ kind: "grader_label.set", targetType: "grader_label", targetId: `${r.traceId}:${r.graderId}`, before: snapshot(before), after: snapshot({ ...r.outcome, source: "human" }) });
    }
    await recordAuditEvents(tx, organizationId, actor, changes);
    return { labels: checked.map((r) => ({ traceId: r.traceId, graderId: r.graderId, ...r.outcome, action: "set" as const })) };
  });
}

/**
 * Undoes a person's grader label: the label it replaced (from the history) is current again, or none when it
 * replaced nothing. The undone label stays in the history. Only a human label can be undone (else 409).
 */
export async function undoGraderLabel(db: Database, actor: TGraderLabelActor, target: { traceId: string; graderId: string }) {
  const { organizationId } = actor;
  return db.transaction(async (tx) => {
    const current = await q.lockCurrentGraderLabel(tx, organizationId, target.traceId, target.graderId);
    if (!current) throw notFound("Grader label");
    if (current.source !== "human") throw new AppError("conflict", "Only a person's grader label can be undone; this one is a grading's.");
    // The label this one replaced when it was recorded (not one an earlier undo put in the history).
    const recordedAt = current.evaluatedAt === null ? new Date() : new Date(current.evaluatedAt);
    const previous = await findLatestGraderLabelHistoryEntry(tx, organizationId, target.traceId, target.graderId, recordedAt);
    if (previous) {
      await q.upsertGraderLabel(tx, {
        organizationId, ...target, graderVersion: previous.graderVersion, label: previous.label, score: previous.score, category: previous.category,
        labelReason: previous.labelReason, failureDiagnostic: previous.failureDiagnostic, labelConfidence: previous.labelConfidence,
        source: previous.source as "human" | "live_grader", evaluatedAt: previous.evaluatedAt ?? undefined,
        decidedBy: previous.decidedBy, decidedVia: previous.decidedVia, replacedBy: actor.userId, replacedAt: new Date(),
      });
      // The undone label went to the history; the restored one is current again, so it leaves the history.
      await deleteGraderLabelHistoryEntry(tx, organizationId, previous.id);
    } else {
      await keepReplacedGraderLabel(tx, { organizationId, ...target, replacedAt: new Date(), replacedBy: actor.userId });
      await q.deleteGraderLabel(tx, organizationId, target.traceId, target.graderId);
    }
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "grader_label.undone", targetType: "grader_label", targetId: `${target.traceId}:${target.graderId}`,
      before: snapshot(current), after: previous ? snapshot(previous) : null,
    }]);
    return { restored: previous ? snapshot(previous) : null };
  });
}
