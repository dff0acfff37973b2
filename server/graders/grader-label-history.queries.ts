// The history of grader labels (docs/graders.md, "Scores and categories"): before a write replaces a trace's label
// of a grader, the row it replaces is copied here, whoever writes (a grading or a person), so no verdict, score or
// category is lost and a person's write can be undone. Shared by grading (the worker's writes) and labels (people's).
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";
import { newId } from "../ids.ts";

/** Copies the current label of (trace, grader), if any, into the history; call in the writing transaction. */
export async function keepReplacedGraderLabel(
  db: DbClient,
  k: { organizationId: string; traceId: string; graderId: string; replacedAt: Date; replacedBy: string | null },
): Promise<void> {
  await db.sql.query(sql`
    INSERT INTO grader_label_history (organization_id, id, trace_id, grader_id, grader_version, label, score, category, label_reason,
      failure_diagnostic, label_confidence, source, decided_by, decided_via, evaluated_at, replaced_at, replaced_by)
    SELECT organization_id, ${newId()}::uuid, trace_id, grader_id, grader_version, label, score, category, label_reason,
      failure_diagnostic, label_confidence, source, decided_by, decided_via, evaluated_at, ${k.replacedAt.toISOString()}::timestamptz, ${k.replacedBy}::uuid
    FROM grader_labels
    WHERE organization_id = ${k.organizationId}::uuid AND trace_id = ${k.traceId}::uuid AND grader_id = ${k.graderId}::uuid`);
}

export interface GraderLabelHistoryRow {
  id: string;
  graderId: string;
  graderVersion: number;
  label: boolean | null;
  score: number | null;
  category: string | null;
  labelReason: string | null;
  failureDiagnostic: string | null;
  labelConfidence: string | null;
  source: string;
  decidedBy: string | null;
  decidedVia: string | null;
  evaluatedAt: Date | null;
  replacedAt: Date;
  replacedBy: string | null;
}

/** The replaced labels of a trace (optionally one grader's), newest first. */
export function findGraderLabelHistory(db: DbClient, organizationId: string, traceId: string, graderId?: string, take?: number, notAfter?: Date): Promise<GraderLabelHistoryRow[]> {
  return db.prisma.graderLabelHistory.findMany({
    where: { organizationId, traceId, ...(graderId ? { graderId } : {}), ...(notAfter ? { replacedAt: { lte: notAfter } } : {}) },
    select: {
      id: true, graderId: true, graderVersion: true, label: true, score: true, category: true, labelReason: true, failureDiagnostic: true,
      labelConfidence: true, source: true, decidedBy: true, decidedVia: true, evaluatedAt: true, replacedAt: true, replacedBy: true,
    },
    orderBy: [{ replacedAt: "desc" }, { id: "desc" }],
    ...(take !== undefined ? { take } : {}),
  });
}

/** The newest label of (trace, grader) replaced at or before `notAfter` (when the current one was recorded), or null. */
export async function findLatestGraderLabelHistoryEntry(db: DbClient, organizationId: string, traceId: string, graderId: string, notAfter: Date): Promise<GraderLabelHistoryRow | null> {
  return (await findGraderLabelHistory(db, organizationId, traceId, graderId, 1, notAfter))[0] ?? null;
}

/** Removes one history entry (an undo restored it as the current label). */
export async function deleteGraderLabelHistoryEntry(db: DbClient, organizationId: string, id: string): Promise<void> {
  await db.prisma.graderLabelHistory.deleteMany({ where: { organizationId, id } });
}
