// Approving or rejecting an agent verdict: console-only: no API endpoint approves an
// agent verdict (docs/api/console.md, "Procedures"; docs/api/labels.md). Runs under the same per-trace verdict lock
// as every other verdict write, so it never approves a verdict that is being superseded.
import { recordAuditEvents } from "../auth/audit/audit.service.ts";
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { lockTraceLabels } from "./trace-labels.queries.ts";
import * as q from "./verdicts.queries.ts";

export interface TReviewVerdictInput {
  traceId: string;
  assertionId: string | null;
  approve: boolean;
}

/** A verdict as the audit log keeps it. */
const verdictAudit = (v: { assertionId?: string | null; label: boolean | null; labelStatus: string; labelSource: string; annotation: string | null; approvalState: string }) =>
  ({ assertionId: v.assertionId ?? null, label: v.label, labelStatus: v.labelStatus, labelSource: v.labelSource, annotation: v.annotation, approvalState: v.approvalState });

export async function reviewAgentVerdict(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, input: TReviewVerdictInput) {
  const { organizationId } = auth;
  return db.transaction(async (tx) => {
    if (!(await q.traceExists(tx, organizationId, input.traceId))) throw notFound(`Trace ${input.traceId}`);
    await lockTraceLabels(tx, organizationId, input.traceId);
    const current = await q.findCurrentVerdict(tx, organizationId, input.traceId, input.assertionId);
    if (!current) throw notFound("Verdict");
    if (current.labelSource !== "agent") {
      throw new AppError("bad_request", `Only agent verdicts are approved or rejected; this one comes from ${current.labelSource}.`);
    }
    await q.setApproval(tx, organizationId, current.id, input.approve, auth.userId, new Date());
    const before = verdictAudit({ ...current, assertionId: input.assertionId });
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: input.approve ? "label.approved" : "label.rejected", targetType: "trace", targetId: input.traceId,
      before, after: { ...before, approvalState: input.approve ? "approved" : "rejected" },
    }]);
    return { traceId: input.traceId, assertionId: input.assertionId, approvalState: input.approve ? ("approved" as const) : ("rejected" as const) };
  });
}

/** The current verdicts of the traces with who recorded them and when; `recordedBy` is null for an SDK key's. */
export async function findVerdictRecords(db: Database, organizationId: string, traceIds: string[]) {
  const rows = await q.findCurrentVerdictRecords(db, organizationId, traceIds);
  return rows.map((r) => ({
    id: r.id,
    traceId: r.traceId,
    assertionId: r.assertionId,
    labelSource: r.labelSource,
    recordedBy: r.author ? (r.author.name || r.author.email) : null,
    recordedAt: r.createdAt.toISOString(),
  }));
}

/**
 * Undoes one human verdict its author just recorded (the labelling queue's U): it must still be the current
 * verdict of its target; it is superseded and the verdict it replaced, if any, becomes current again, so
 * the history keeps both. Anything else is a 409 and changes nothing.
 */
export async function undoHumanVerdict(db: Database, auth: { organizationId: string; userId: string }, actor: TAuditActor, labelId: string) {
  const { organizationId } = auth;
  return db.transaction(async (tx) => {
    const label = await q.findVerdict(tx, organizationId, labelId);
    if (!label) throw notFound(`Verdict ${labelId}`);
    await lockTraceLabels(tx, organizationId, label.traceId);
    const current = await q.findCurrentVerdict(tx, organizationId, label.traceId, label.assertionId);
    if (current?.id !== label.id) throw new AppError("conflict", "This verdict has been replaced since; nothing was undone.");
    if (label.labelSource !== "human" || label.authorUserId !== auth.userId) {
      throw new AppError("conflict", "Only your own human verdicts can be undone; nothing was undone.");
    }
    const previous = await q.findSupersededBy(tx, organizationId, label, label.createdAt);
    await q.setSuperseded(tx, organizationId, label.id, new Date());
    if (previous) await q.setSuperseded(tx, organizationId, previous.id, null);
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "label.undone", targetType: "trace", targetId: label.traceId, before: { labelId: label.id, ...verdictAudit(label) }, after: { assertionId: label.assertionId, restoredLabelId: previous?.id ?? null },
    }]);
    return { traceId: label.traceId, assertionId: label.assertionId, restoredId: previous?.id ?? null };
  });
}
