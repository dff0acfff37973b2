// The only database access of deleting datasets, graders and assertions and restoring the last two
// (docs/operations.md, "Deleting data"). A tombstone keeps the deleted rows as JSON (to_jsonb of each row), and a
// restore puts them back as they were (jsonb_populate_record of the same table). Every statement names one
// organization.
import type { DbClient } from "../../db/client.ts";
import { empty, sql } from "../../db/sql.ts";

/** Deletes a dataset with its membership, grader assignments and re-runs; never its traces. False if none. */
export async function deleteDatasetRow(
  db: DbClient, organizationId: string, id: string,
): Promise<{ traceFunctionKey: string; name: string; description: string | null; traceCount: number } | null> {
  const org = sql`${organizationId}::uuid`;
  const rows = await db.sql.query<{ n: number; traceFunctionKey: string; name: string; description: string | null }>(sql`
    SELECT (SELECT count(*)::int FROM dataset_traces m WHERE m.organization_id = ${org} AND m.dataset_id = d.id) AS n,
           d.trace_function_key AS "traceFunctionKey", d.name, d.description
    FROM datasets d WHERE d.organization_id = ${org} AND d.id = ${id}::uuid FOR UPDATE`);
  if (rows.length === 0) return null;
  await db.sql.query(sql`DELETE FROM grader_reruns WHERE organization_id = ${org} AND dataset_id = ${id}::uuid`);
  await db.sql.query(sql`DELETE FROM datasets WHERE organization_id = ${org} AND id = ${id}::uuid`);
  const { n, ...fields } = rows[0]!;
  return { ...fields, traceCount: n };
}

export interface TSnapshot {
  [part: string]: unknown;
}

/** A grader's rows (the grader, its versions, its dataset assignments), row-locked; null when it is not the organization's. */
export async function snapshotGrader(db: DbClient, organizationId: string, id: string): Promise<{ name: string; snapshot: TSnapshot } | null> {
  const org = sql`${organizationId}::uuid`;
  const rows = await db.sql.query<{ name: string; snapshot: TSnapshot }>(sql`
    SELECT g.name, jsonb_build_object(
      'grader', to_jsonb(g),
      'versions', (SELECT coalesce(jsonb_agg(to_jsonb(v)), '[]'::jsonb) FROM grader_versions v WHERE v.organization_id = ${org} AND v.grader_id = g.id),
      'datasetGraders', (SELECT coalesce(jsonb_agg(to_jsonb(d)), '[]'::jsonb) FROM dataset_graders d WHERE d.organization_id = ${org} AND d.grader_id = g.id)
    ) AS snapshot
    FROM graders g WHERE g.organization_id = ${org} AND g.id = ${id}::uuid FOR UPDATE OF g`);
  return rows[0] ?? null;
}

/** Deletes the grader row; its versions and dataset assignments go with it (foreign keys), its labels stay unread. */
export async function deleteGraderRow(db: DbClient, organizationId: string, id: string): Promise<void> {
  await db.sql.query(sql`DELETE FROM graders WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** Puts a grader's rows back; a dataset deleted since is left out. Throws 23505 when its name was taken since. */
export async function restoreGraderRows(db: DbClient, organizationId: string, snapshot: TSnapshot): Promise<void> {
  const org = sql`${organizationId}::uuid`;
  await db.sql.query(sql`INSERT INTO graders SELECT * FROM jsonb_populate_record(NULL::graders, ${JSON.stringify(snapshot.grader)}::jsonb) r WHERE r.organization_id = ${org}`);
  await db.sql.query(sql`
    INSERT INTO grader_versions SELECT * FROM jsonb_populate_recordset(NULL::grader_versions, ${JSON.stringify(snapshot.versions)}::jsonb) r
    WHERE r.organization_id = ${org}`);
  await db.sql.query(sql`
    INSERT INTO dataset_graders SELECT r.* FROM jsonb_populate_recordset(NULL::dataset_graders, ${JSON.stringify(snapshot.datasetGraders)}::jsonb) r
    WHERE r.organization_id = ${org} AND EXISTS (SELECT 1 FROM datasets d WHERE d.organization_id = ${org} AND d.id = r.dataset_id)`);
}

/** An assertion's rows (the assertion, its versions, its verdicts), row-locked; null when it is not the organization's. */
export async function snapshotAssertion(db: DbClient, organizationId: string, id: string): Promise<{ name: string; snapshot: TSnapshot } | null> {
  const org = sql`${organizationId}::uuid`;
  const rows = await db.sql.query<{ name: string; snapshot: TSnapshot }>(sql`
    SELECT a.assertion AS name, jsonb_build_object(
      'assertion', to_jsonb(a),
      'versions', (SELECT coalesce(jsonb_agg(to_jsonb(v)), '[]'::jsonb) FROM assertion_versions v WHERE v.organization_id = ${org} AND v.assertion_id = a.id),
      'labels', (SELECT coalesce(jsonb_agg(to_jsonb(l)), '[]'::jsonb) FROM trace_labels l WHERE l.organization_id = ${org} AND l.assertion_id = a.id)
    ) AS snapshot
    FROM assertions a WHERE a.organization_id = ${org} AND a.id = ${id}::uuid FOR UPDATE OF a`);
  return rows[0] ?? null;
}

/** Deletes the assertion with its versions (foreign key) and its verdicts. */
export async function deleteAssertionRow(db: DbClient, organizationId: string, id: string): Promise<void> {
  const org = sql`${organizationId}::uuid`;
  await db.sql.query(sql`DELETE FROM trace_labels WHERE organization_id = ${org} AND assertion_id = ${id}::uuid`);
  await db.sql.query(sql`DELETE FROM assertions WHERE organization_id = ${org} AND id = ${id}::uuid`);
}

/** Puts an assertion's rows back; verdicts on traces deleted since stay out. False when its trace is gone. */
export async function restoreAssertionRows(db: DbClient, organizationId: string, snapshot: TSnapshot): Promise<boolean> {
  const org = sql`${organizationId}::uuid`;
  const inserted = await db.sql.query(sql`
    INSERT INTO assertions SELECT r.* FROM jsonb_populate_record(NULL::assertions, ${JSON.stringify(snapshot.assertion)}::jsonb) r
    WHERE r.organization_id = ${org} AND EXISTS (SELECT 1 FROM traces t WHERE t.organization_id = ${org} AND t.id = r.trace_id)
    RETURNING id`);
  if (inserted.length === 0) return false;
  await db.sql.query(sql`
    INSERT INTO assertion_versions SELECT * FROM jsonb_populate_recordset(NULL::assertion_versions, ${JSON.stringify(snapshot.versions)}::jsonb) r
    WHERE r.organization_id = ${org}`);
  await db.sql.query(sql`
    INSERT INTO trace_labels SELECT r.* FROM jsonb_populate_recordset(NULL::trace_labels, ${JSON.stringify(snapshot.labels)}::jsonb) r
    WHERE r.organization_id = ${org} AND EXISTS (SELECT 1 FROM traces t WHERE t.organization_id = ${org} AND t.id = r.trace_id)`);
  return true;
}

export interface TTombstoneRow {
  id: string;
  kind: string;
  itemId: string;
  name: string;
  snapshot: TSnapshot;
  deletedByUserId: string | null;
  deletedVia: string;
  deletedAt: Date;
  restoredAt: Date | null;
}

export async function insertTombstone(db: DbClient, organizationId: string, t: Omit<TTombstoneRow, "restoredAt" | "name">): Promise<void> {
  await db.sql.query(sql`
    INSERT INTO tombstones (organization_id, id, kind, item_id, snapshot, deleted_by_user_id, deleted_via, deleted_at)
    VALUES (${organizationId}::uuid, ${t.id}::uuid, ${t.kind}, ${t.itemId}::uuid, ${JSON.stringify(t.snapshot)}::jsonb,
            ${t.deletedByUserId}::uuid, ${t.deletedVia}, ${t.deletedAt.toISOString()}::timestamptz)`);
}

const TOMBSTONE_COLUMNS = sql`id::text AS id, kind, item_id::text AS "itemId",
  COALESCE(snapshot -> 'grader' ->> 'name', snapshot -> 'assertion' ->> 'assertion', '') AS name, snapshot,
  deleted_by_user_id::text AS "deletedByUserId", deleted_via AS "deletedVia", deleted_at AS "deletedAt", restored_at AS "restoredAt"`;

/** A tombstone, row-locked for its restore. */
export async function lockTombstone(db: DbClient, organizationId: string, id: string): Promise<TTombstoneRow | null> {
  const rows = await db.sql.query<TTombstoneRow>(sql`
    SELECT ${TOMBSTONE_COLUMNS} FROM tombstones WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid FOR UPDATE`);
  return rows[0] ?? null;
}

export async function markRestored(db: DbClient, organizationId: string, id: string, at: Date): Promise<void> {
  await db.sql.query(sql`UPDATE tombstones SET restored_at = ${at.toISOString()}::timestamptz WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
}

/** The organization's tombstones not restored yet, newest first. */
export function selectTombstones(db: DbClient, organizationId: string, kind: string | undefined, take: number) {
  return db.sql.query<TTombstoneRow>(sql`
    SELECT ${TOMBSTONE_COLUMNS} FROM tombstones
    WHERE organization_id = ${organizationId}::uuid AND restored_at IS NULL ${kind ? sql`AND kind = ${kind}` : empty}
    ORDER BY deleted_at DESC, id DESC LIMIT ${take}`);
}
