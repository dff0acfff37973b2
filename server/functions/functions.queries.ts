// The only database access of the prompt functions. Version writes run in one transaction under a row lock
// on the function (raw SQL: Prisma cannot take FOR UPDATE), so concurrent saves number versions without gaps
// or collisions. Reads use Prisma. Every query filters by organization.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

export interface VersionRow {
  id: string;
  version_number: number;
  prompt: string;
  providers: unknown;
}

/** Inserts the function unless the name exists; true when it inserted. */
export async function insertFunctionIfMissing(db: DbClient, organizationId: string, id: string, name: string): Promise<boolean> {
  const rows = await db.sql.query(sql`
    INSERT INTO functions (id, organization_id, name) VALUES (${id}::uuid, ${organizationId}::uuid, ${name})
    ON CONFLICT (organization_id, name) DO NOTHING
    RETURNING id`);
  return rows.length > 0;
}

export async function lockFunctionByName(db: DbClient, organizationId: string, name: string): Promise<string> {
  const [row] = await db.sql.query<{ id: string }>(sql`
    SELECT id::text AS id FROM functions WHERE organization_id = ${organizationId}::uuid AND name = ${name} FOR UPDATE`);
  return row.id;
}

export async function selectLatestVersion(db: DbClient, organizationId: string, functionId: string): Promise<VersionRow | undefined> {
  const [row] = await db.sql.query<VersionRow>(sql`
    SELECT id::text AS id, version_number, prompt, providers FROM function_versions
    WHERE organization_id = ${organizationId}::uuid AND function_id = ${functionId}::uuid ORDER BY version_number DESC LIMIT 1`);
  return row;
}

export async function insertVersion(db: DbClient, organizationId: string, v: { id: string; functionId: string; versionNumber: number; prompt: string; providers: string }) {
  await db.sql.query(sql`
    INSERT INTO function_versions (id, organization_id, function_id, version_number, prompt, providers)
    VALUES (${v.id}::uuid, ${organizationId}::uuid, ${v.functionId}::uuid, ${v.versionNumber}, ${v.prompt}, ${v.providers}::jsonb)`);
  await db.sql.query(sql`UPDATE functions SET updated_at = now() WHERE organization_id = ${organizationId}::uuid AND id = ${v.functionId}::uuid`);
}

const latestVersionSelect = {
  id: true,
  name: true,
  versions: { orderBy: { versionNumber: "desc" }, take: 1, select: { id: true, versionNumber: true, prompt: true, providers: true } },
} as const;

export function selectFunctionByName(db: DbClient, organizationId: string, name: string) {
  return db.prisma.promptFunction.findUnique({ where: { organizationId_name: { organizationId, name } }, select: latestVersionSelect });
}

export function selectFunctionById(db: DbClient, organizationId: string, id: string) {
  return db.prisma.promptFunction.findFirst({ where: { organizationId, id }, select: latestVersionSelect });
}

export type TFunctionRow = NonNullable<Awaited<ReturnType<typeof selectFunctionByName>>>;
