// The only database access of the assertion feature. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { Prisma } from "../generated/prisma/client.ts";

export const assertionSelect = {
  id: true,
  traceId: true,
  assertion: true,
  passCriteria: true,
  failCriteria: true,
  targetOnEvaluatedTrace: true,
  check: true,
  categoryAssertionId: true,
  justification: true,
  categoryJustification: true,
  humanNote: true,
  source: true,
  authorUserId: true,
  approvalState: true,
  approvedByUserId: true,
  approvedAt: true,
  assigneeUserId: true,
  archivedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type AssertionRow = Prisma.AssertionGetPayload<{ select: typeof assertionSelect }>;

/** Writable columns; undefined keeps the stored value (Prisma skips it). */
export interface AssertionFields {
  assertion?: string;
  passCriteria?: string | null;
  failCriteria?: string | null;
  targetOnEvaluatedTrace?: unknown;
  check?: unknown;
  categoryAssertionId?: string | null;
  justification?: unknown;
  categoryJustification?: string | null;
  humanNote?: string | null;
  approvalState?: string;
  approvedByUserId?: string | null;
  approvedAt?: Date | null;
  assigneeUserId?: string | null;
}

/** JSON columns: null in the API means SQL NULL (Prisma needs DbNull for that). */
function toData(f: AssertionFields) {
  const json = (v: unknown) => (v === undefined ? undefined : v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));
  return {
    targetOnEvaluatedTrace: json(f.targetOnEvaluatedTrace),
    check: json(f.check),
    justification: json(f.justification),
  };
}

export async function findTraceLineage(db: DbClient, organizationId: string, traceId: string) {
  return db.prisma.trace.findUnique({
    where: { organizationId_id: { organizationId, id: traceId } },
    select: { id: true, originalTraceId: true },
  });
}

export async function findExistingTraceIds(db: DbClient, organizationId: string, ids: string[]) {
  const rows = await db.prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export function findActiveAssertionRows(db: DbClient, organizationId: string, traceIds: string[], approvedOnly = false): Promise<AssertionRow[]> {
  return db.prisma.assertion.findMany({
    where: { organizationId, traceId: { in: traceIds }, archivedAt: null, ...(approvedOnly ? { approvalState: "approved" } : {}) },
    select: assertionSelect,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export function findAssertionRowsById(db: DbClient, organizationId: string, ids: string[]): Promise<AssertionRow[]> {
  return db.prisma.assertion.findMany({ where: { organizationId, id: { in: ids } }, select: assertionSelect });
}

export function insertAssertions(
  db: DbClient,
  rows: (AssertionFields & { id: string; organizationId: string; traceId: string; assertion: string; source: string; authorUserId: string })[],
) {
  // Reads order by (created_at, id); rows of one batch get created_at 1 ms apart so they keep the batch order.
  const base = Date.now();
  return db.prisma.assertion.createMany({
    data: rows.map((r, i) => ({ ...r, ...toData(r), createdAt: new Date(base + i), updatedAt: new Date(base + i) })),
  });
}

/** Edits an active assertion of the trace; 0 when it is gone, archived, or another trace's. */
export async function updateActiveAssertion(
  db: DbClient,
  where: { organizationId: string; traceId: string; id: string },
  fields: AssertionFields,
): Promise<number> {
  const res = await db.prisma.assertion.updateMany({ where: { ...where, archivedAt: null }, data: { ...fields, ...toData(fields), updatedAt: new Date() } });
  return res.count;
}

export async function archiveAssertionRows(db: DbClient, organizationId: string, traceId: string, ids: string[], at: Date) {
  return db.prisma.assertion.updateMany({ where: { organizationId, traceId, id: { in: ids }, archivedAt: null }, data: { archivedAt: at, updatedAt: at } });
}

/** Sets the review state of active assertions of the organization; returns the ids changed. */
export async function updateApprovalState(db: DbClient, organizationId: string, ids: string[], state: { approvalState: string; approvedByUserId: string | null; approvedAt: Date | null; humanNote?: string | null }) {
  const rows = await db.prisma.assertion.findMany({ where: { organizationId, id: { in: ids }, archivedAt: null }, select: { id: true } });
  await db.prisma.assertion.updateMany({ where: { organizationId, id: { in: rows.map((r) => r.id) } }, data: { ...state, updatedAt: new Date() } });
  return rows.map((r) => r.id);
}

export function findUserByEmail(db: DbClient, organizationId: string, email: string) {
  return db.prisma.user.findFirst({ where: { organizationId, email: { equals: email, mode: "insensitive" } }, select: { id: true, email: true } });
}

export function findCategoryTitles(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.assertionCategory.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, title: true } });
}

export function findUsers(db: DbClient, organizationId: string, ids: string[]) {
  return db.prisma.user.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, email: true, name: true } });
}
