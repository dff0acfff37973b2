// Console-only verdict review: the current verdict of a target and its approval state.
import type { DbClient } from "../db/client.ts";

export const traceExists = async (db: DbClient, organizationId: string, id: string) =>
  (await db.prisma.trace.count({ where: { organizationId, id } })) > 0;

export const findCurrentVerdict = (db: DbClient, organizationId: string, traceId: string, assertionId: string | null) =>
  db.prisma.traceLabel.findFirst({
    where: { organizationId, traceId, assertionId, supersededAt: null },
    select: { id: true, labelSource: true, labelStatus: true },
  });

export const setApproval = (db: DbClient, organizationId: string, id: string, approve: boolean, userId: string, at: Date) =>
  db.prisma.traceLabel.updateMany({
    where: { organizationId, id, supersededAt: null },
    data: { approved: approve, approvalState: approve ? "approved" : "rejected", approvedByUserId: userId, approvedAt: at },
  });
