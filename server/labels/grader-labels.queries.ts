// Grader labels: one row per grader per trace, replaced by a later grading (docs/api/labels.md,
// "GET /api/sdk/graderLabels").
import { markTracesChanged } from "../insight/dashboard/rollups/rollups.queries.ts";
import type { DbClient } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { sql, uuidArray } from "../db/sql.ts";
import { keepReplacedGraderLabel } from "../graders/grader-label-history.queries.ts";
import { newId } from "../ids.ts";

export interface GraderLabelInput {
  organizationId: string;
  traceId: string;
  graderId: string;
  /** null for an errored verdict (a target that could not be found, an unreachable judge). */
  label: boolean | null;
  labelReason?: string | null;
  failureDiagnostic?: string | null;
  /** VeryLow | Low | Medium | High | VeryHigh */
  labelConfidence?: string | null;
  /** live_grader for a verdict a grader run produced; human for one a person recorded on the grader. */
  source: "live_grader" | "human";
  evaluatedAt?: Date;
  /** The grader version the verdict is about; default: the grader's current one. */
  graderVersion?: number;
  /** A score in the grader's range or a category of its set (docs/graders.md, "Scores and categories"). */
  score?: number | null;
  category?: string | null;
  /** A human label: the user who recorded it, and through what (console, rest, mcp). */
  decidedBy?: string | null;
  decidedVia?: string | null;
  /** Who replaced the label this write replaces (kept in the history); default decidedBy. */
  replacedBy?: string | null;
  /** When it was replaced (the history's replacedAt); default now. */
  replacedAt?: Date;
}

/**
 * Writes the verdict of one grader on one trace, replacing an earlier one. A single ON CONFLICT statement,
 * so concurrent gradings of the same pair never fail; works with the client or inside a transaction.
 */
export async function upsertGraderLabel(db: DbClient, input: GraderLabelInput): Promise<void> {
  const evaluatedAt = input.evaluatedAt ?? new Date();
  // The time is a parameter: Citus refuses now() inside ON CONFLICT … DO UPDATE (docs/operations.md, "Citus").
  const at = new Date();
  const now = at.toISOString();
  await keepReplacedGraderLabel(db, { organizationId: input.organizationId, traceId: input.traceId, graderId: input.graderId, replacedAt: input.replacedAt ?? at, replacedBy: input.replacedBy ?? input.decidedBy ?? null });
  await db.sql.query(sql`
    INSERT INTO grader_labels (id, organization_id, trace_id, grader_id, grader_version, label, label_reason, failure_diagnostic,
                               label_confidence, source, evaluated_at, created_at, updated_at, score, category, decided_by, decided_via)
    -- SELECT, not VALUES: Citus takes no subquery in a VALUES list (docs/operations.md, "Citus").
    SELECT ${newId()}::uuid, ${input.organizationId}::uuid, ${input.traceId}::uuid, ${input.graderId}::uuid,
            COALESCE(${input.graderVersion ?? null}::integer,
                     (SELECT version FROM graders WHERE organization_id = ${input.organizationId}::uuid AND id = ${input.graderId}::uuid), 1),
            ${input.label}::boolean,
            ${input.labelReason ?? null}, ${input.failureDiagnostic ?? null}, ${input.labelConfidence ?? null}, ${input.source},
            ${evaluatedAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz,
            ${input.score ?? null}::float8, ${input.category ?? null}, ${input.decidedBy ?? null}::uuid, ${input.decidedVia ?? null}
    ON CONFLICT (organization_id, trace_id, grader_id) DO UPDATE SET
      grader_version = EXCLUDED.grader_version, label = EXCLUDED.label, label_reason = EXCLUDED.label_reason, failure_diagnostic = EXCLUDED.failure_diagnostic,
      label_confidence = EXCLUDED.label_confidence, source = EXCLUDED.source, evaluated_at = EXCLUDED.evaluated_at,
      updated_at = EXCLUDED.updated_at, score = EXCLUDED.score, category = EXCLUDED.category,
      decided_by = EXCLUDED.decided_by, decided_via = EXCLUDED.decided_via`);
  // After the write, so that a job run that reads the mark sees the label (docs/scaling.md, "Dashboard").
  await markTracesChanged(db, input.organizationId, [input.traceId]);
}

const graderLabelSelect = {
  traceId: true,
  graderId: true,
  graderVersion: true,
  label: true,
  labelReason: true,
  failureDiagnostic: true,
  labelConfidence: true,
  source: true,
  evaluatedAt: true,
  score: true,
  category: true,
  decidedBy: true,
  decidedVia: true,
} as const;
export type GraderLabelRow = Prisma.GraderLabelGetPayload<{ select: typeof graderLabelSelect }>;

export function findGraderLabelRows(db: DbClient, f: { organizationId: string; traceIds?: string[]; graderId?: string; limit?: number }) {
  return db.prisma.graderLabel.findMany({
    where: {
      organizationId: f.organizationId,
      ...(f.traceIds ? { traceId: { in: f.traceIds } } : {}),
      ...(f.graderId ? { graderId: f.graderId } : {}),
    },
    select: graderLabelSelect,
    orderBy: [{ evaluatedAt: { sort: "desc", nulls: "last" } }, { traceId: "asc" }, { graderId: "asc" }],
    ...(f.limit !== undefined ? { take: f.limit } : {}),
  });
}

export function findGraders(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.grader.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, name: true, status: true, config: true } });
}

/** The graders a write names, with what a score or category is checked against. */
export function findGradersForWrite(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.grader.findMany({
    where: { organizationId, id: { in: ids } },
    select: { id: true, name: true, status: true, config: true, version: true, traceFunctionKey: true },
  });
}

/** The traces a write names (of the organization), with their trace function. */
export function findTracesForWrite(db: DbClient, organizationId: string, ids: string[]) {
  return db.sql.query<{ id: string; traceFunctionKey: string | null }>(sql`
    SELECT id::text AS id, trace_function_key AS "traceFunctionKey" FROM traces
    WHERE organization_id = ${organizationId}::uuid AND id = ANY(${uuidArray(ids)})`);
}

/** The current label of (trace, grader), locked for the writing transaction (one organization's row). */
export async function lockCurrentGraderLabel(db: DbClient, organizationId: string, traceId: string, graderId: string) {
  const rows = await db.sql.query<{ source: string; label: boolean | null; score: number | null; category: string | null; decidedBy: string | null; evaluatedAt: Date | string | null }>(sql`
    SELECT source, label, score, category, decided_by::text AS "decidedBy", evaluated_at AS "evaluatedAt" FROM grader_labels
    WHERE organization_id = ${organizationId}::uuid AND trace_id = ${traceId}::uuid AND grader_id = ${graderId}::uuid
    FOR UPDATE`);
  return rows[0] ?? null;
}

/** Removes the current label of (trace, grader): an undo with no earlier label to restore. */
export async function deleteGraderLabel(db: DbClient, organizationId: string, traceId: string, graderId: string): Promise<void> {
  await db.prisma.graderLabel.deleteMany({ where: { organizationId, traceId, graderId } });
  await markTracesChanged(db, organizationId, [traceId]);
}

export function findUserNames(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.user.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, name: true, email: true } });
}
