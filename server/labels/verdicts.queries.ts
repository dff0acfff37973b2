// Console-only verdict review: the current verdict of a target and its approval state.
import type { Prisma } from "../generated/prisma/client.ts";

type Tx = Prisma.TransactionClient;

export const traceExists = async (tx: Tx, organizationId: string, id: string) =>
  (await tx.trace.count({ where: { organizationId, id } })) > 0;

export const findCurrentVerdict = (tx: Tx, organizationId: string, traceId: string, assertionId: string | null) =>
  tx.traceLabel.findFirst({
    where: { organizationId, traceId, assertionId, supersededAt: null },
    select: { id: true, labelSource: true, labelStatus: true },
  });

export const setApproval = (tx: Tx, organizationId: string, id: string, approve: boolean, userId: string, at: Date) =>
  tx.traceLabel.updateMany({
    where: { organizationId, id, supersededAt: null },
    data: { approved: approve, approvalState: approve ? "approved" : "rejected", approvedByUserId: userId, approvedAt: at },
  });
