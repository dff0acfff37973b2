// The only database access of the retention setting. organizations is a small reference table on Citus; the
// change history is keyed by organization like every table that grows with use.
import type { DbClient } from "../../db/client.ts";

export const selectRetentionDays = (db: DbClient, organizationId: string) =>
  db.prisma.organization.findUnique({ where: { id: organizationId }, select: { retentionDays: true } });

export const updateRetentionDays = (db: DbClient, organizationId: string, retentionDays: number | null) =>
  db.prisma.organization.update({ where: { id: organizationId }, data: { retentionDays }, select: { retentionDays: true } });

export interface TRetentionChangeWrite {
  id: string;
  previousDays: number | null;
  retentionDays: number | null;
  changedByUserId: string | null;
  changedVia: string;
  changedAt: Date;
}

export const insertRetentionChange = (db: DbClient, organizationId: string, c: TRetentionChangeWrite) =>
  db.prisma.retentionChange.create({ data: { organizationId, ...c }, select: { id: true } });

export const selectRetentionChanges = (db: DbClient, organizationId: string, take: number) =>
  db.prisma.retentionChange.findMany({
    where: { organizationId },
    orderBy: [{ changedAt: "desc" }, { id: "desc" }],
    take,
    select: { previousDays: true, retentionDays: true, changedByUserId: true, changedVia: true, changedAt: true },
  });

/** Organizations with a retention period (the sweep's work list). */
export const selectOrganizationsWithRetention = (db: DbClient) =>
  db.prisma.organization.findMany({ where: { retentionDays: { not: null } }, select: { id: true, retentionDays: true } });
