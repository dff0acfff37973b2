// Console-only verdict review: the current verdict of a target and its approval state.
import { markTracesChanged } from "../insight/dashboard/rollups/rollups.queries.ts";
import type { DbClient } from "../db/client.ts";

export const traceExists = async (db: DbClient, organizationId: string, id: string) =>
  (await db.prisma.trace.count({ where: { organizationId, id } })) > 0;

export const findCurrentVerdict = (db: DbClient, organizationId: string, traceId: string, assertionId: string | null) =>
  db.prisma.traceLabel.findFirst({
    where: { organizationId, traceId, assertionId, supersededAt: null },
    select: { id: true, labelSource: true, labelStatus: true, label: true, annotation: true, approvalState: true },
  });

export const setApproval = (db: DbClient, organizationId: string, id: string, approve: boolean, userId: string, at: Date) =>
  db.prisma.traceLabel.updateMany({
    where: { organizationId, id, supersededAt: null },
    data: { approved: approve, approvalState: approve ? "approved" : "rejected", approvedByUserId: userId, approvedAt: at },
  });

/** Who recorded each current verdict of the traces, and when (the console's "who and when"). */
export async function findCurrentVerdictRecords(db: DbClient, organizationId: string, traceIds: string[]) {
  const rows = await db.prisma.traceLabel.findMany({
    where: { organizationId, traceId: { in: traceIds }, supersededAt: null },
    select: { id: true, traceId: true, assertionId: true, labelSource: true, authorUserId: true, createdAt: true },
  });
  const userIds = [...new Set(rows.flatMap((r) => (r.authorUserId ? [r.authorUserId] : [])))];
  const users = userIds.length
    ? await db.prisma.user.findMany({ where: { organizationId, id: { in: userIds } }, select: { id: true, email: true, name: true } })
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({ ...r, author: r.authorUserId ? (byId.get(r.authorUserId) ?? null) : null }));
}

/** The verdict the current one superseded: same target, superseded when the current one was written. */
export const findSupersededBy = (db: DbClient, organizationId: string, t: { traceId: string; assertionId: string | null }, at: Date) =>
  db.prisma.traceLabel.findFirst({
    where: { organizationId, traceId: t.traceId, assertionId: t.assertionId, supersededAt: at },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });

export const findVerdict = (db: DbClient, organizationId: string, id: string) =>
  db.prisma.traceLabel.findFirst({
    where: { organizationId, id },
    select: { id: true, traceId: true, assertionId: true, labelSource: true, labelStatus: true, label: true, annotation: true, approvalState: true, authorUserId: true, supersededAt: true, createdAt: true },
  });

export async function setSuperseded(db: DbClient, organizationId: string, id: string, at: Date | null) {
  // Undoing or restoring a verdict changes the dashboard's verdict chart; marked after the write (docs/scaling.md, "Dashboard").
  const row = await db.prisma.traceLabel.findFirst({ where: { organizationId, id }, select: { traceId: true } });
  const res = await db.prisma.traceLabel.updateMany({ where: { organizationId, id }, data: { supersededAt: at } });
  if (row) await markTracesChanged(db, organizationId, [row.traceId]);
  return res;
}

/** Every verdict ever recorded on a trace (current and superseded), newest first, with the names of who wrote and who reviewed. */
export async function findVerdictHistoryRows(db: DbClient, organizationId: string, traceId: string) {
  const rows = await db.prisma.traceLabel.findMany({
    where: { organizationId, traceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true, assertionId: true, labelStatus: true, label: true, annotation: true, confidence: true, labelSource: true,
      approvalState: true, approvedByUserId: true, approvedAt: true, authorUserId: true, testRunId: true, supersededAt: true, createdAt: true,
    },
  });
  const userIds = [...new Set(rows.flatMap((r) => [r.authorUserId, r.approvedByUserId].filter((id): id is string => id !== null)))];
  const assertionIds = [...new Set(rows.flatMap((r) => (r.assertionId ? [r.assertionId] : [])))];
  const [users, assertions] = await Promise.all([
    userIds.length ? db.prisma.user.findMany({ where: { organizationId, id: { in: userIds } }, select: { id: true, email: true, name: true } }) : [],
    assertionIds.length ? db.prisma.assertion.findMany({ where: { organizationId, id: { in: assertionIds } }, select: { id: true, assertion: true } }) : [],
  ]);
  return { rows, users: new Map(users.map((u) => [u.id, u.name || u.email])), assertions: new Map(assertions.map((a) => [a.id, a.assertion])) };
}
