// The only database access for trace labels (verdict history). The current verdict of a target (trace,
// assertion or none) is the row with superseded_at null; the partial unique index trace_labels_current_key
// guarantees at most one.
import { markTracesChanged } from "../insight/dashboard/rollups/rollups.queries.ts";
import type { DbClient } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { sql } from "../db/sql.ts";
import { newId } from "../ids.ts";

export const currentLabelSelect = {
  traceId: true,
  assertionId: true,
  labelStatus: true,
  label: true,
  annotation: true,
  confidence: true,
  labelSource: true,
  approved: true,
  evidence: true,
} as const;
export type CurrentLabelRow = Prisma.TraceLabelGetPayload<{ select: typeof currentLabelSelect }>;

export interface NewTraceLabel {
  organizationId: string;
  traceId: string;
  assertionId: string | null;
  /** labeled | skipped | errored */
  labelStatus: string;
  label: boolean | null;
  annotation: string | null;
  confidence: string | null;
  /** human | agent | judge */
  labelSource: string;
  approved: boolean;
  approvedByUserId: string | null;
  authorUserId: string | null;
  testRunId: string | null;
  /** Span evidence; undefined keeps the evidence of the verdict this one supersedes, null records none. */
  evidence?: unknown;
}

/**
 * Serialises verdict writes per trace until the transaction ends (a transaction-scoped advisory lock, so
 * ingestion's row locks on the trace are not involved). Callers lock several traces in sorted order.
 */
export async function lockTraceLabels(db: DbClient, organizationId: string, traceId: string) {
  await db.sql.query(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`trace-labels:${organizationId}:${traceId}`}, 0))::text`);
}

/** Marks the current verdict of the target superseded; returns how many rows it changed (0 or 1). */
/** The verdict a write replaced, as the audit log keeps it. */
export interface TReplacedVerdict {
  label: boolean | null;
  labelStatus: string;
  labelSource: string;
  annotation: string | null;
  approvalState: string;
}

/** Supersedes the target's current verdict; returns it as it was (null: there was none), so no read is needed. */
export async function supersedeCurrent(db: DbClient, t: { organizationId: string; traceId: string; assertionId: string | null }, at: Date): Promise<TReplacedVerdict | null> {
  const assertion = t.assertionId === null ? sql`assertion_id IS NULL` : sql`assertion_id = ${t.assertionId}::uuid`;
  const rows = await db.sql.query<TReplacedVerdict>(sql`
    UPDATE trace_labels SET superseded_at = ${at.toISOString()}::timestamptz
    WHERE organization_id = ${t.organizationId}::uuid AND trace_id = ${t.traceId}::uuid AND ${assertion} AND superseded_at IS NULL
    RETURNING label, label_status AS "labelStatus", label_source AS "labelSource", annotation, approval_state AS "approvalState"`);
  // A whole-trace verdict is a figure of the dashboard's verdict chart; marked after the write (docs/scaling.md, "Dashboard").
  if (t.assertionId === null && rows.length > 0) await markTracesChanged(db, t.organizationId, [t.traceId]);
  return rows[0] ?? null;
}

/** The evidence of the target's current verdict (null when none). */
export async function findCurrentEvidence(db: DbClient, t: { organizationId: string; traceId: string; assertionId: string | null }) {
  const row = await db.prisma.traceLabel.findFirst({
    where: { organizationId: t.organizationId, traceId: t.traceId, assertionId: t.assertionId, supersededAt: null },
    select: { evidence: true },
  });
  return row?.evidence ?? null;
}

export async function insertLabel(db: DbClient, row: NewTraceLabel, at: Date) {
  const created = await db.prisma.traceLabel.create({
    data: {
      id: newId(),
      ...row,
      evidence: row.evidence === null || row.evidence === undefined ? Prisma.DbNull : (row.evidence as Prisma.InputJsonValue),
      approvalState: row.approved ? "approved" : "pending",
      approvedAt: row.approved ? at : null,
      createdAt: at,
    },
    select: { id: true },
  });
  if (!row.assertionId) await markTracesChanged(db, row.organizationId, [row.traceId]);
  return created;
}

export function findCurrentLabels(db: DbClient, organizationId: string, traceIds: string[]): Promise<CurrentLabelRow[]> {
  return db.prisma.traceLabel.findMany({
    where: { organizationId, traceId: { in: traceIds }, supersededAt: null },
    select: currentLabelSelect,
  });
}

export async function findExistingTraceIds(db: DbClient, organizationId: string, ids: string[]) {
  const rows = await db.prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Replay traces of one test run for one original trace, lowest attempt first. */
export function findReplayTraces(db: DbClient, organizationId: string, testRunId: string, originalTraceId: string) {
  return db.prisma.trace.findMany({
    where: { organizationId, testRunId, originalTraceId },
    select: { id: true, replayAttempt: true },
    orderBy: [{ replayAttempt: { sort: "asc", nulls: "first" } }, { createdAt: "asc" }],
  });
}

/** Active assertions among `ids`, with the trace each belongs to. */
export function findActiveAssertions(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.assertion.findMany({
    where: { organizationId, id: { in: ids }, archivedAt: null },
    select: { id: true, traceId: true, assertion: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Sets the evidence of the target's current verdict when it is an agent's awaiting validation; returns whether one was. */
export async function setPendingAgentEvidence(db: DbClient, t: { organizationId: string; traceId: string; assertionId: string | null }, evidence: unknown) {
  const res = await db.prisma.traceLabel.updateMany({
    where: { organizationId: t.organizationId, traceId: t.traceId, assertionId: t.assertionId, supersededAt: null, labelSource: "agent", approved: false },
    data: { evidence: evidence as Prisma.InputJsonValue },
  });
  return res.count > 0;
}
