// copy-to (docs/operations.md, "From laptop to cluster"): an embedded database filled through the real ingestion
// route is copied into an empty database (PostgreSQL, or Citus, on those runs; another embedded one otherwise),
// every table's rows and every span compare equal, a second copy into the same target is refused, and a resumed
// copy after an interruption completes without duplicating anything.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { call, createEmptyPostgresDatabase, createTestOrg, onCitus, onPostgres } from "../../test/harness.ts";
import { setDb } from "../db.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { completionPayload, spanPayload } from "../ingest/testing/payloads.ts";
import { openDatabase, type Database } from "./client.ts";
import { copyDatabase, instantMicros, sameRow, type TCopyProgress } from "./copy-to.ts";
import { raw, sql } from "./sql.ts";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});
afterAll(() => setDb(undefined));

async function emptyTarget(): Promise<Database> {
  if (!onPostgres) {
    const db = await openDatabase({ dataDir: "memory://" });
    closers.push(() => db.close());
    return db;
  }
  const { url, drop } = await createEmptyPostgresDatabase();
  const db = await openDatabase({ url });
  closers.push(async () => {
    await db.close();
    await drop();
  });
  return db;
}

/** An embedded database with two organizations' traces, written by the ingestion route. */
async function filledSource(traces: number): Promise<Database> {
  const db = await openDatabase({ dataDir: "memory://" });
  closers.push(() => db.close());
  const { migrate } = await import("./migrator.ts");
  await migrate(db.sql);
  setDb(db);
  for (const name of ["A", "B"]) {
    const org = await createTestOrg(db, name);
    for (let t = 0; t < traces; t++) {
      const traceId = randomUUID();
      const root = randomUUID();
      const input = [{ text: `naïve café ☕ ${t}`, nested: { "key with spaces": [1, 2.5, null, true], quote: "\"\\" } }];
      expect((await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, spanId: root, input, output: "x".repeat(3000 * t) }) })).status).toBe(200);
      expect((await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, parentId: root, name: "child" }) })).status).toBe(200);
      expect((await call(postExternalTrace, { apiKey: org.apiKey, body: completionPayload({ traceId, expectedSpanCount: 2 }) })).status).toBe(200);
    }
  }
  return db;
}

async function tableCounts(db: Database): Promise<Record<string, number>> {
  const tables = await db.sql.query<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
    WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'reprise_migrations' ORDER BY 1`);
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${raw(`"${name}"`)}`);
    counts[name] = row.n;
  }
  return counts;
}

// On Citus the target's migrations distribute every table and each small page is a distributed write: minutes on a busy machine.
const copyTimeout = onCitus ? 240_000 : 60_000;

describe("copy-to", () => {
  it("copies every row, keeps every span byte for byte, and reports progress per table", { timeout: copyTimeout }, async () => {
    const source = await filledSource(6);
    const target = await emptyTarget();
    const progress: TCopyProgress[] = [];
    // Small pages, so the keyset paging and the page-halving both run.
    const summary = await copyDatabase(source.sql, target.sql, { pageRows: 4, pageChars: 20_000, onProgress: (p) => progress.push(p) });
    const counts = await tableCounts(source);
    expect(counts.spans).toBe(24);
    expect(await tableCounts(target)).toEqual(counts);
    expect(summary.rows).toBe(Object.values(counts).reduce((a, b) => a + b, 0));
    expect(summary.sampledSpans).toBe(24);
    const spans = progress.filter((p) => p.table === "spans");
    expect(spans.at(0)).toEqual({ table: "spans", copied: 0, total: 24 });
    expect(spans.at(-1)).toEqual({ table: "spans", copied: 24, total: 24 });
    expect(spans.length).toBeGreaterThan(6);
    // Every span, not only the sample: the stored document as sent, and every other column.
    const all = sql`SELECT id::text, raw_span::text AS doc, row_to_json(s)::text AS row FROM spans s ORDER BY id`;
    const [from, to] = [await source.sql.query<{ id: string; doc: string; row: string }>(all), await target.sql.query<{ id: string; doc: string; row: string }>(all)];
    expect(to.map((r) => r.doc)).toEqual(from.map((r) => r.doc));
    from.forEach((r, i) => expect(sameRow(r.row, to[i].row)).toBe(true));
    // Serial columns continue after the copied rows: the next outbox row gets a new id.
    const [next] = await target.sql.query<{ fresh: boolean }>(sql`
      SELECT nextval(pg_get_serial_sequence('trace_events', 'id')) > (SELECT max(id) FROM trace_events) AS fresh`);
    expect(next.fresh).toBe(true);
    if (onCitus) {
      const [spansTable] = await target.sql.query<{ method: string }>(sql`SELECT partmethod::text AS method FROM pg_dist_partition WHERE logicalrelid = 'spans'::regclass`);
      expect(spansTable?.method).toBe("h");
    }
  });

  it("refuses a target that is not empty, and a resumed copy finishes an interrupted one without duplicates", { timeout: copyTimeout }, async () => {
    const source = await filledSource(2);
    const target = await emptyTarget();
    let pages = 0;
    const interrupted = copyDatabase(source.sql, target.sql, {
      pageRows: 1,
      onProgress: (p) => {
        if (p.table === "spans" && p.copied > 0 && ++pages === 3) throw new Error("stopped");
      },
    });
    await expect(interrupted).rejects.toThrow("stopped");
    await expect(copyDatabase(source.sql, target.sql)).rejects.toThrow(/target is not empty .*--resume/);
    await copyDatabase(source.sql, target.sql, { resume: true });
    expect(await tableCounts(target)).toEqual(await tableCounts(source));
  });

  it("compares timestamps by instant to the microsecond, whatever zone each server printed", () => {
    expect(instantMicros("2026-11-28T20:41:45.123456+00:00")).toBe(instantMicros("2026-11-28T21:41:45.123456+01:00"));
    expect(instantMicros("2026-11-28T20:41:45.123456+00:00")).not.toBe(instantMicros("2026-11-28T20:41:45.123457+00:00"));
    expect(sameRow('{"a":"2026-11-28T20:41:45.5+00:00","b":"x"}', '{"a":"2026-11-28T15:41:45.5-05:00","b":"x"}')).toBe(true);
    expect(sameRow('{"a":"2026-11-28T20:41:45.5+00:00","b":"x"}', '{"a":"2026-11-28T20:41:45.5+00:00","b":"y"}')).toBe(false);
  });
});
