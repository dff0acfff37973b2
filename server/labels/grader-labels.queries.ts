// Grader labels: one row per grader per trace, replaced by a later grading (docs/api/labels.md,
// "GET /api/sdk/graderLabels").
import type { DbClient } from "../db/client.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { sql } from "../db/sql.ts";
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
}

/**
 * Writes the verdict of one grader on one trace, replacing an earlier one. A single ON CONFLICT statement,
 * so concurrent gradings of the same pair never fail; works with the client or inside a transaction.
 */
export async function upsertGraderLabel(db: DbClient, input: GraderLabelInput): Promise<void> {
  const evaluatedAt = input.evaluatedAt ?? new Date();
  // The time is a parameter: Citus refuses now() inside ON CONFLICT … DO UPDATE (docs/operations.md, "Citus").
  const now = new Date().toISOString();
  await db.sql.query(sql`
    INSERT INTO grader_labels (id, organization_id, trace_id, grader_id, grader_version, label, label_reason, failure_diagnostic,
                               label_confidence, source, evaluated_at, created_at, updated_at)
    -- SELECT, not VALUES: Citus takes no subquery in a VALUES list (docs/operations.md, "Citus").
    SELECT ${newId()}::uuid, ${input.organizationId}::uuid, ${input.traceId}::uuid, ${input.graderId}::uuid,
            COALESCE(${input.graderVersion ?? null}::integer,
                     (SELECT version FROM graders WHERE organization_id = ${input.organizationId}::uuid AND id = ${input.graderId}::uuid), 1),
            ${input.label}::boolean,
            ${input.labelReason ?? null}, ${input.failureDiagnostic ?? null}, ${input.labelConfidence ?? null}, ${input.source},
            ${evaluatedAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
    ON CONFLICT (organization_id, trace_id, grader_id) DO UPDATE SET
      grader_version = EXCLUDED.grader_version, label = EXCLUDED.label, label_reason = EXCLUDED.label_reason, failure_diagnostic = EXCLUDED.failure_diagnostic,
      label_confidence = EXCLUDED.label_confidence, source = EXCLUDED.source, evaluated_at = EXCLUDED.evaluated_at,
      updated_at = EXCLUDED.updated_at`);
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
  return db.prisma.grader.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, name: true, status: true } });
}
