// A trace's grader labels as they are and as they were (docs/graders.md, "Scores and categories"): the current
// label of each grader, then every label a later write replaced, newest first. The trace page's history.
import type { DbClient } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { findGraderLabelHistory } from "../graders/grader-label-history.queries.ts";
import * as q from "./grader-labels.queries.ts";
import type { TGraderLabelHistoryEntry } from "./labels.schemas.ts";

export async function findTraceGraderLabelHistory(db: DbClient, organizationId: string, traceId: string): Promise<{ entries: TGraderLabelHistoryEntry[] }> {
  if ((await q.findTracesForWrite(db, organizationId, [traceId])).length === 0) throw notFound("Trace");
  const [current, replaced] = await Promise.all([q.findGraderLabelRows(db, { organizationId, traceIds: [traceId] }), findGraderLabelHistory(db, organizationId, traceId)]);
  const graderIds = [...new Set([...current, ...replaced].map((r) => r.graderId))];
  const userIds = [...new Set([...current, ...replaced].flatMap((r) => (r.decidedBy ? [r.decidedBy] : [])))];
  const [graders, users] = await Promise.all([q.findGraders(db, organizationId, graderIds), userIds.length ? q.findUserNames(db, organizationId, userIds) : []]);
  const graderName = new Map(graders.map((g) => [g.id, g.name]));
  const userName = new Map(users.map((u) => [u.id, u.name || u.email]));
  const shape = (r: (typeof current)[number] | (typeof replaced)[number]) => ({
    graderId: r.graderId,
    graderName: graderName.get(r.graderId) ?? null,
    graderVersion: r.graderVersion,
    label: r.label,
    score: r.score,
    category: r.category,
    reason: r.labelReason,
    failureDiagnostic: r.failureDiagnostic,
    source: r.source as TGraderLabelHistoryEntry["source"],
    decidedBy: r.decidedBy ? (userName.get(r.decidedBy) ?? null) : null,
    decidedVia: r.decidedVia,
    evaluatedAt: r.evaluatedAt?.toISOString() ?? null,
  });
  return {
    entries: [
      ...current.map((r) => ({ ...shape(r), id: null, state: "current" as const, replacedAt: null })),
      ...replaced.map((r) => ({ ...shape(r), id: r.id, state: "replaced" as const, replacedAt: r.replacedAt.toISOString() })),
    ],
  };
}
