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
  createdAt: Date;
  updatedAt: Date;
}

export const graderSelect = {
  id: true, organizationId: true, traceFunctionKey: true, name: true, kind: true, config: true,
  status: true, live: true, createdAt: true, updatedAt: true,
} as const;

export interface GraderWrite {
  traceFunctionKey: string;
  name: string;
  kind: string;
  config: unknown;
  status?: string;
  live?: boolean;
}

const COLUMNS = sql`id, organization_id AS "organizationId", trace_function_key AS "traceFunctionKey", name, kind, config,
  status, live, created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Creates or updates by (organization, traceFunctionKey, name) in one statement, so concurrent
 * requests create one grader. Omitted status/live keep the stored values (defaults on create).
 */
export async function upsertGraderRow(db: DbClient, organizationId: string, id: string, g: GraderWrite): Promise<GraderRow & { created: boolean }> {
  const [row] = await db.sql.query<GraderRow & { created: boolean }>(sql`
    INSERT INTO graders (id, organization_id, trace_function_key, name, kind, config, status, live)
    VALUES (${id}::uuid, ${organizationId}::uuid, ${g.traceFunctionKey}, ${g.name}, ${g.kind}, ${JSON.stringify(g.config)}::jsonb,
            COALESCE(${g.status ?? null}::text, 'active'), COALESCE(${g.live ?? null}::boolean, true))
    ON CONFLICT (organization_id, trace_function_key, name) DO UPDATE SET
      kind = EXCLUDED.kind,
      config = EXCLUDED.config,
      status = COALESCE(${g.status ?? null}::text, graders.status),
      live = COALESCE(${g.live ?? null}::boolean, graders.live),
      updated_at = now()
    RETURNING ${COLUMNS}, (xmax = 0) AS created`);
  return row;
}

/** Inserts a new grader; null when one of that (traceFunctionKey, name) exists already. */
export async function insertGraderRow(db: DbClient, organizationId: string, id: string, g: GraderWrite): Promise<GraderRow | null> {
  const [row] = await db.sql.query<GraderRow>(sql`
    INSERT INTO graders (id, organization_id, trace_function_key, name, kind, config, status, live)
    VALUES (${id}::uuid, ${organizationId}::uuid, ${g.traceFunctionKey}, ${g.name}, ${g.kind}, ${JSON.stringify(g.config)}::jsonb,
            COALESCE(${g.status ?? null}::text, 'active'), COALESCE(${g.live ?? null}::boolean, true))
    ON CONFLICT (organization_id, trace_function_key, name) DO NOTHING
    RETURNING ${COLUMNS}`);
  return row ?? null;
}

/** Edits one grader of the organization; null when it is not theirs (or does not exist). */
export async function updateGraderRow(db: DbClient, organizationId: string, id: string, g: GraderWrite): Promise<GraderRow | null> {
  const [row] = await db.sql.query<GraderRow>(sql`
    UPDATE graders SET
      trace_function_key = ${g.traceFunctionKey}, name = ${g.name}, kind = ${g.kind}, config = ${JSON.stringify(g.config)}::jsonb,
      status = COALESCE(${g.status ?? null}::text, status), live = COALESCE(${g.live ?? null}::boolean, live), updated_at = now()
    WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid
    RETURNING ${COLUMNS}`);
  return row ?? null;
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
