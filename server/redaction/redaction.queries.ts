// The only place redaction touches the database: the versions of an organization's rules.
import type { DbClient } from "../db/client.ts";
import { sql } from "../db/sql.ts";

export interface TRuleVersionRow {
  version: number;
  rules: unknown;
  author_user_id: string | null;
  author_email: string | null;
  restored_from: number | null;
  created_at: string;
}

/** The rules in force (the highest version), or none. */
export async function selectCurrentRules(db: DbClient, organizationId: string): Promise<{ version: number; rules: unknown } | null> {
  const rows = await db.sql.query<{ version: number; rules: unknown }>(sql`
    SELECT version, rules FROM redaction_rule_versions
    WHERE organization_id = ${organizationId}::uuid ORDER BY version DESC LIMIT 1`);
  return rows[0] ?? null;
}

/** Every version, newest first, with its author's e-mail. */
export function selectRuleVersions(db: DbClient, organizationId: string, limit: number): Promise<TRuleVersionRow[]> {
  return db.sql.query<TRuleVersionRow>(sql`
    SELECT v.version, v.rules, v.author_user_id::text AS author_user_id, u.email AS author_email, v.restored_from,
           to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
    FROM redaction_rule_versions v
    LEFT JOIN users u ON u.id = v.author_user_id
    WHERE v.organization_id = ${organizationId}::uuid
    ORDER BY v.version DESC LIMIT ${limit}`);
}

export async function selectRuleVersion(db: DbClient, organizationId: string, version: number): Promise<unknown | null> {
  const rows = await db.sql.query<{ rules: unknown }>(sql`
    SELECT rules FROM redaction_rule_versions WHERE organization_id = ${organizationId}::uuid AND version = ${version}`);
  return rows[0]?.rules ?? null;
}

/**
 * Appends the next version. Two changes at once compute the same number and the primary key refuses the
 * second (the caller answers 409): neither silently replaces the other.
 */
export async function insertRuleVersion(
  db: DbClient,
  organizationId: string,
  row: { rules: unknown; authorUserId: string | null; restoredFrom: number | null; at: Date },
): Promise<number> {
  const rows = await db.sql.query<{ version: number }>(sql`
    INSERT INTO redaction_rule_versions (organization_id, version, rules, author_user_id, restored_from, created_at)
    SELECT ${organizationId}::uuid, COALESCE(max(version), 0) + 1, ${JSON.stringify(row.rules)}::jsonb,
           ${row.authorUserId}::uuid, ${row.restoredFrom}::int, ${row.at.toISOString()}::timestamptz
    FROM redaction_rule_versions WHERE organization_id = ${organizationId}::uuid
    RETURNING version`);
  return rows[0].version;
}
