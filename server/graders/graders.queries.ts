// The only database access of the Graders API. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

export interface GraderRow {
  id: string;
  organizationId: string;
  traceFunctionKey: string;
  name: string;
  kind: string;
  config: unknown;
  status: string;
  live: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export const graderSelect = {
  id: true, organizationId: true, traceFunctionKey: true, name: true, kind: true, config: true,
  status: true, live: true, version: true, createdAt: true, updatedAt: true,
} as const;

/** A whole definition: what a version records. */
export interface GraderDefinition {
  traceFunctionKey: string;
  name: string;
  kind: string;
  config: unknown;
  status: string;
  live: boolean;
}

export interface GraderVersionWrite extends GraderDefinition {
  version: number;
  authorUserId: string | null;
  authorVia: string;
  authorTool: string | null;
  summary: string;
  revertedFrom: number | null;
}

const COLUMNS = sql`id, organization_id AS "organizationId", trace_function_key AS "traceFunctionKey", name, kind, config,
  status, live, version, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Inserts a new grader at version 1; null when one of that (traceFunctionKey, name) exists already. */
export async function insertGraderRow(db: DbClient, organizationId: string, id: string, g: GraderDefinition): Promise<GraderRow | null> {
  const [row] = await db.sql.query<GraderRow>(sql`
    INSERT INTO graders (id, organization_id, trace_function_key, name, kind, config, status, live, version)
    VALUES (${id}::uuid, ${organizationId}::uuid, ${g.traceFunctionKey}, ${g.name}, ${g.kind}, ${JSON.stringify(g.config)}::jsonb,
            ${g.status}, ${g.live}, 1)
    ON CONFLICT (organization_id, trace_function_key, name) DO NOTHING
    RETURNING ${COLUMNS}`);
  return row ?? null;
}

/** The grader's row locked until the transaction ends, so versions are numbered one at a time. */
export async function lockGraderRow(db: DbClient, organizationId: string, id: string): Promise<GraderRow | null> {
  const [row] = await db.sql.query<GraderRow>(sql`
    SELECT ${COLUMNS} FROM graders WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return row ?? null;
}

/** Writes the definition as the grader's version `version`. */
export async function updateGraderRow(db: DbClient, organizationId: string, id: string, g: GraderDefinition, version: number): Promise<GraderRow> {
  const [row] = await db.sql.query<GraderRow>(sql`
    UPDATE graders SET
      trace_function_key = ${g.traceFunctionKey}, name = ${g.name}, kind = ${g.kind}, config = ${JSON.stringify(g.config)}::jsonb,
      status = ${g.status}, live = ${g.live}, version = ${version}, updated_at = now()
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid
    RETURNING ${COLUMNS}`);
  return row;
}

export async function insertGraderVersion(db: DbClient, organizationId: string, graderId: string, v: GraderVersionWrite): Promise<void> {
  await db.sql.query(sql`
    INSERT INTO grader_versions (organization_id, grader_id, version, trace_function_key, name, kind, config, status, live,
                                 author_user_id, author_via, author_tool, summary, reverted_from)
    VALUES (${organizationId}::uuid, ${graderId}::uuid, ${v.version}, ${v.traceFunctionKey}, ${v.name}, ${v.kind},
            ${JSON.stringify(v.config)}::jsonb, ${v.status}, ${v.live}, ${v.authorUserId}::uuid, ${v.authorVia}, ${v.authorTool},
            ${v.summary}, ${v.revertedFrom}::integer)`);
}

const versionSelect = {
  version: true, traceFunctionKey: true, name: true, kind: true, config: true, status: true, live: true,
  authorUserId: true, authorVia: true, authorTool: true, summary: true, revertedFrom: true, createdAt: true,
} as const;

/** Every version of one grader, newest first, with the author's name and email when they are a user of the organization. */
export async function findGraderVersionRows(db: DbClient, organizationId: string, graderId: string) {
  const rows = await db.prisma.graderVersion.findMany({ where: { organizationId, graderId }, select: versionSelect, orderBy: { version: "desc" } });
  const userIds = [...new Set(rows.flatMap((r) => (r.authorUserId ? [r.authorUserId] : [])))];
  const users = userIds.length ? await db.prisma.user.findMany({ where: { organizationId, id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((r) => ({ ...r, author: r.authorUserId ? (byId.get(r.authorUserId) ?? null) : null }));
}

export function findGraderVersionRow(db: DbClient, organizationId: string, graderId: string, version: number) {
  return db.prisma.graderVersion.findUnique({
    where: { organizationId_graderId_version: { organizationId, graderId, version } },
    select: versionSelect,
  });
}

export function findGraderIdByName(db: DbClient, organizationId: string, traceFunctionKey: string, name: string) {
  return db.prisma.grader.findUnique({ where: { organizationId_traceFunctionKey_name: { organizationId, traceFunctionKey, name } }, select: { id: true } });
}

export function findGraderRows(db: DbClient, organizationId: string, traceFunctionKey?: string): Promise<GraderRow[]> {
  return db.prisma.grader.findMany({
    where: { organizationId, ...(traceFunctionKey !== undefined ? { traceFunctionKey } : {}) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: graderSelect,
  });
}

export function findGraderRowsByIds(db: DbClient, organizationId: string, ids: string[]): Promise<GraderRow[]> {
  return db.prisma.grader.findMany({ where: { organizationId, id: { in: ids } }, select: graderSelect });
}
