// Distribution on Citus (docs/operations.md, "Citus"). On a database with the citus extension, every table of ours
// that carries organization_id is distributed by it, co-located with traces, so one organization's rows of every
// table live on one shard group and its statements route to one node; the small global tables (organizations,
// users, API keys, console sessions) become reference tables, copied to every node. The migration record and the
// job queue's schema stay local to the coordinator. Idempotent, and run under the migration lock, so several
// instances starting together distribute once; the migrator runs it after every run of migrations.
import { sql } from "./sql.ts";
import type { SqlClient, SqlDatabase } from "./sql.ts";
import { MIGRATION_LOCK_ID } from "./migration-lock.ts";

/** Small tables every node needs (joins and foreign keys from distributed tables reach them locally). */
export const REFERENCE_TABLES = ["organizations", "users", "api_keys", "console_sessions"] as const;
/** The table the others are co-located with. */
export const COLOCATION_ANCHOR = "traces";
/** Tables of ours that stay on the coordinator alone. */
const LOCAL_TABLES = ["reprise_migrations"];

export async function hasCitus(db: SqlClient): Promise<boolean> {
  const rows = await db.query(sql`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  return rows.length > 0;
}

interface TableState {
  name: string;
  /** h: distributed by hash, n: reference, null: local. */
  method: string | null;
  byOrganization: boolean;
  /** Tables this one's foreign keys reference (other than itself). */
  references: string[];
}

async function tables(tx: SqlClient): Promise<TableState[]> {
  return tx.query<TableState>(sql`
    SELECT c.relname AS name, p.partmethod::text AS method,
      EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped) AS "byOrganization",
      COALESCE((SELECT array_agg(DISTINCT r.relname::text) FROM pg_constraint k JOIN pg_class r ON r.oid = k.confrelid
        WHERE k.conrelid = c.oid AND k.contype = 'f' AND k.confrelid <> c.oid), '{}') AS "references"
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
    WHERE c.relkind IN ('r', 'p') AND c.relname <> ALL (${LOCAL_TABLES}::text[])
    ORDER BY c.relname`);
}

/**
 * Distributes what is not distributed yet; returns the tables it changed (none on a second run). Parents go before
 * the tables whose foreign keys reference them, which Citus requires.
 */
export async function distributeOnCitus(db: SqlDatabase): Promise<string[]> {
  if (db.kind !== "postgres" || !(await hasCitus(db))) return [];
  return db.transaction(async (tx) => {
    await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    // Distributing tables that already hold rows copies them to the shards within this transaction.
    await tx.query(sql`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    const state = await tables(tx);
    const done = new Set(state.filter((t) => t.method !== null).map((t) => t.name));
    const changed: string[] = [];
    const reference = new Set<string>(REFERENCE_TABLES);
    const pending = state.filter((t) => t.method === null && (reference.has(t.name) || t.byOrganization));
    const ordered = [
      ...pending.filter((t) => reference.has(t.name)),
      ...pending.filter((t) => t.name === COLOCATION_ANCHOR),
      ...pending.filter((t) => !reference.has(t.name) && t.name !== COLOCATION_ANCHOR),
    ];
    while (ordered.length > 0) {
      const index = ordered.findIndex((t) => t.references.every((r) => done.has(r) || !ordered.some((o) => o.name === r)));
      const table = ordered.splice(index === -1 ? 0 : index, 1)[0];
      if (reference.has(table.name)) {
        await tx.query(sql`SELECT create_reference_table(${table.name}::regclass)`);
      } else {
        const colocate = table.name === COLOCATION_ANCHOR ? "default" : COLOCATION_ANCHOR;
        await tx.query(sql`SELECT create_distributed_table(${table.name}::regclass, 'organization_id', colocate_with => ${colocate})`);
      }
      done.add(table.name);
      changed.push(table.name);
    }
    return changed;
  });
}
