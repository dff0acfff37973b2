// The only place the audit log touches the database. Every query filters by organization.
import type { DbClient } from "../../db/client.ts";
import { Prisma } from "../../generated/prisma/client.ts";

export interface TAuditRow {
  organizationId: string;
  id: string;
  at: Date;
  actorVia: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  actorTool: string | null;
  kind: string;
  targetType: string;
  targetId: string;
  /** null: nothing (created, or removed); stored as SQL NULL. */
  before: unknown;
  after: unknown;
}

const auditSelect = {
  id: true,
  at: true,
  actorVia: true,
  actorUserId: true,
  actorApiKeyId: true,
  actorTool: true,
  kind: true,
  targetType: true,
  targetId: true,
  before: true,
  after: true,
} as const;

const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));

export const insertAuditEvents = (db: DbClient, rows: TAuditRow[]) =>
  db.prisma.auditEvent.createMany({ data: rows.map((r) => ({ ...r, before: json(r.before), after: json(r.after) })) });

export interface TAuditFilter {
  actorUserId?: string;
  via?: string;
  kindPrefix?: string;
  from?: Date;
  to?: Date;
  /** The (at, id) of the last event served: the page continues strictly after it. */
  after?: { at: Date; id: string };
}

export const findAuditEventsPage = (db: DbClient, organizationId: string, filter: TAuditFilter, limit: number) =>
  db.prisma.auditEvent.findMany({
    where: {
      organizationId,
      ...(filter.actorUserId ? { actorUserId: filter.actorUserId } : {}),
      ...(filter.via ? { actorVia: filter.via } : {}),
      ...(filter.kindPrefix ? { kind: { startsWith: filter.kindPrefix } } : {}),
      ...(filter.from || filter.to ? { at: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
      ...(filter.after ? { OR: [{ at: { lt: filter.after.at } }, { at: filter.after.at, id: { lt: filter.after.id } }] } : {}),
    },
    select: auditSelect,
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
  });

export const findEmailsOfUsers = (db: DbClient, organizationId: string, ids: string[]) =>
  db.prisma.user.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true, email: true } });
