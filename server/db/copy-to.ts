// Copying one Reprise database into another (docs/operations.md, "From laptop to cluster"): the admin CLI's
// `copy-to`, which moves an embedded database into PostgreSQL or Citus. The target is migrated first (on Citus that
// distributes its tables), then every table is copied parents first, in pages read by primary key, each page one
// INSERT … SELECT FROM json_populate_recordset(…) ON CONFLICT DO NOTHING: the rows travel as the source's JSON text
// of each column, which every column type of ours reads back exactly (bytea as hex, json verbatim, timestamps with
// their offset and microseconds). Re-running with `resume` continues an interrupted copy: a row already there is
// left as it is. Then counts are compared per table, and a sample of spans column by column.
import { raw, sql, type Sql, type SqlClient, type SqlDatabase } from "./sql.ts";
import { migrate } from "./migrator.ts";
import { AppError } from "../errors.ts";

export interface TCopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface TCopyOptions {
  /** Continue a copy into a target that already holds rows (an interrupted copy-to), instead of refusing. */
  resume?: boolean;
  onProgress?: (progress: TCopyProgress) => void;
  /** How many spans the verification compares column by column. */
  sampleSpans?: number;
  /** The largest page read at once, in rows and in JSON characters (a page halves while it is larger). */
  pageRows?: number;
  pageChars?: number;
}

export interface TCopySummary {
  tables: Array<{ table: string; rows: number }>;
  rows: number;
  sampledSpans: number;
  /** Background jobs the source still had pending; they are not copied (docs/operations.md, "From laptop to cluster"). */
  pendingJobs: number;
}

interface TTable {
  name: string;
  columns: string[];
  key: string[];
  references: string[];
}

/** The copy finished but the target does not hold what the source holds. */
export class CopyMismatchError extends Error {}

const SKIPPED_TABLES = ["reprise_migrations"];

/** The tables of ours with their copyable columns (not generated), primary key and the tables they reference. */
async function readTables(db: SqlClient): Promise<TTable[]> {
  const rows = await db.query<{ name: string; columns: string[]; key: string[] | null; references: string[] }>(sql`
    SELECT c.relname AS name,
      ARRAY(SELECT a.attname::text FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        AND a.attgenerated = '' ORDER BY a.attnum) AS columns,
      (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM pg_index i
        CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
        WHERE i.indrelid = c.oid AND i.indisprimary) AS key,
      ARRAY(SELECT DISTINCT r.relname::text FROM pg_constraint f JOIN pg_class r ON r.oid = f.confrelid
        WHERE f.conrelid = c.oid AND f.contype = 'f' AND f.confrelid <> c.oid) AS "references"
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> ALL (${SKIPPED_TABLES}::text[])
    ORDER BY c.relname`);
  return rows.map((r) => ({ ...r, key: r.key ?? r.columns }));
}

/** Parents before the tables whose foreign keys reference them. */
function parentsFirst(tables: TTable[]): TTable[] {
  const pending = [...tables];
  const done = new Set<string>();
  const ordered: TTable[] = [];
  while (pending.length > 0) {
    const index = pending.findIndex((t) => t.references.every((r) => done.has(r) || !pending.some((p) => p.name === r)));
    const [next] = pending.splice(index === -1 ? 0 : index, 1);
    ordered.push(next);
    done.add(next.name);
  }
  return ordered;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const list = (names: string[]) => names.map(ident).join(", ");

async function countRows(db: SqlClient, table: string): Promise<number> {
  const [row] = await db.query<{ n: string }>(sql`SELECT count(*)::text AS n FROM ${raw(ident(table))}`);
  return Number(row.n);
}

async function migrationNames(db: SqlClient): Promise<string[]> {
  const rows = await db.query<{ name: string }>(sql`SELECT name FROM reprise_migrations ORDER BY name`);
  return rows.map((r) => r.name);
}

/** Copies one table in pages by primary key; returns how many rows the source has. */
async function copyTable(source: SqlClient, target: SqlClient, table: TTable, options: Required<Pick<TCopyOptions, "pageRows" | "pageChars">> & TCopyOptions) {
  const total = await countRows(source, table.name);
  const name = ident(table.name);
  const columns = list(table.columns);
  const key = list(table.key);
  let after: string | null = null;
  let copied = 0;
  let limit = options.pageRows;
  options.onProgress?.({ table: table.name, copied, total });
  for (;;) {
    const from: Sql = after === null ? sql`` : sql`WHERE (${raw(key)}) > (SELECT ${raw(key)} FROM json_populate_record(NULL::${raw(name)}, ${after}::json))`;
    const [page]: Array<{ rows: string | null; n: number; last: string | null }> = await source.query<{ rows: string | null; n: number; last: string | null }>(sql`
      SELECT json_agg(p ORDER BY ${raw(key)})::text AS rows, count(*)::int AS n,
        (array_agg(json_build_object(${raw(table.key.map((k) => `'${k.replace(/'/g, "''")}', p.${ident(k)}`).join(", "))})::text ORDER BY ${raw(key)} DESC))[1] AS last
      FROM (SELECT ${raw(columns)} FROM ${raw(name)} ${from} ORDER BY ${raw(key)} LIMIT ${limit}) p`);
    if (!page || page.n === 0 || page.rows === null) break;
    if (page.rows.length > options.pageChars && limit > 1) {
      limit = Math.max(1, Math.floor(limit / 2));
      continue;
    }
    await target.query(sql`
      INSERT INTO ${raw(name)} (${raw(columns)})
      SELECT ${raw(columns)} FROM json_populate_recordset(NULL::${raw(name)}, ${page.rows}::json)
      ON CONFLICT DO NOTHING`);
    copied += page.n;
    after = page.last;
    options.onProgress?.({ table: table.name, copied, total });
    if (page.n < limit) break;
  }
  return total;
}

/** Sequences behind serial columns continue after the largest copied value. */
async function advanceSequences(target: SqlClient) {
  const serials = await target.query<{ table: string; column: string }>(sql`
    SELECT c.relname AS table, a.attname AS column FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE a.attnum > 0 AND NOT a.attisdropped AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`);
  for (const { table, column } of serials) {
    await target.query(sql`
      SELECT setval(pg_get_serial_sequence(${ident(table)}, ${column}), greatest(1, coalesce((SELECT max(${raw(ident(column))}) FROM ${raw(ident(table))}), 1)))`);
  }
}

/** Spans compared column by column as text (payloads byte for byte); returns how many were compared. */
async function compareSpanSample(source: SqlClient, target: SqlClient, size: number): Promise<number> {
  const picked = await source.query<{ organization_id: string; id: string; row: string }>(sql`
    SELECT organization_id::text, id::text, row_to_json(s)::text AS row FROM spans s ORDER BY md5(id::text) LIMIT ${size}`);
  for (const span of picked) {
    const [copy] = await target.query<{ row: string }>(sql`
      SELECT row_to_json(s)::text AS row FROM spans s WHERE organization_id = ${span.organization_id}::uuid AND id = ${span.id}::uuid`);
    if (!copy) throw new CopyMismatchError(`copy-to: span ${span.id} was not copied.`);
    if (!sameRow(span.row, copy.row)) throw new CopyMismatchError(`copy-to: span ${span.id} differs in the target from the source.`);
  }
  return picked.length;
}

const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?([+-]\d\d(?::?\d\d)?|Z)$/;

/** A timestamp's instant in microseconds, whatever time zone the server printed it in; undefined for other text. */
export function instantMicros(text: string): bigint | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m) return undefined;
  const zone = m[3] === "Z" ? "Z" : m[3].length === 3 ? `${m[3]}:00` : m[3].includes(":") ? m[3] : `${m[3].slice(0, 3)}:${m[3].slice(3)}`;
  return BigInt(Date.parse(`${m[1]}${zone}`)) * 1000n + BigInt((m[2] ?? "").padEnd(6, "0"));
}

/** Two rows' JSON compared column by column: text byte for byte, timestamps by instant to the microsecond. */
export function sameRow(a: string, b: string): boolean {
  const [left, right] = [JSON.parse(a) as Record<string, unknown>, JSON.parse(b) as Record<string, unknown>];
  if (Object.keys(left).join() !== Object.keys(right).join()) return false;
  return Object.keys(left).every((column) => {
    const [x, y] = [left[column], right[column]];
    if (typeof x === "string" && typeof y === "string" && x !== y) {
      const [p, q] = [instantMicros(x), instantMicros(y)];
      return p !== undefined && p === q;
    }
    return JSON.stringify(x) === JSON.stringify(y);
  });
}

async function pendingJobs(source: SqlClient): Promise<number> {
  const [schema] = await source.query<{ present: boolean }>(sql`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`);
  if (!schema?.present) return 0;
  const [row] = await source.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`);
  return row.n;
}

/**
 * Copies every row of `source` into `target` (both Reprise databases of this build; the target is migrated here).
 * Refuses a target that already holds rows unless `resume`. Throws when a count or a sampled span differs.
 */
export async function copyDatabase(source: SqlDatabase, target: SqlDatabase, options: TCopyOptions = {}): Promise<TCopySummary> {
  const settings = { pageRows: 1000, pageChars: 8 * 1024 * 1024, sampleSpans: 100, ...options };
  await migrate(source);
  await migrate(target);
  const [from, to] = [await migrationNames(source), await migrationNames(target)];
  if (from.join() !== to.join()) throw new AppError("conflict", "copy-to: the two databases are at different migrations; run both with this version of Reprise.");
  const tables = parentsFirst(await readTables(source));
  if (!settings.resume) {
    for (const table of tables) {
      if ((await target.query(sql`SELECT 1 FROM ${raw(ident(table.name))} LIMIT 1`)).length > 0) {
        throw new AppError("conflict", `copy-to: the target is not empty (table ${table.name} has rows). Copy into an empty database, or pass --resume to continue a copy that stopped.`);
      }
    }
  }
  const copied: TCopySummary["tables"] = [];
  for (const table of tables) copied.push({ table: table.name, rows: await copyTable(source, target, table, settings) });
  await advanceSequences(target);
  for (const { table, rows } of copied) {
    const there = await countRows(target, table);
    if (there !== rows) throw new CopyMismatchError( `copy-to: table ${table} has ${rows} rows in the source and ${there} in the target.`);
  }
  const sampledSpans = await compareSpanSample(source, target, settings.sampleSpans);
  return { tables: copied, rows: copied.reduce((n, t) => n + t.rows, 0), sampledSpans, pendingJobs: await pendingJobs(source) };
}
