// The trace page's read of one big trace, phase by phase, in-process (no HTTP, Next.js or browser): where the
// time to the first rows goes on the server. A trace of N spans (a root and N - 1 children, ~4 KB of stored
// payload each, as the ingestion benchmark's agent loop) is written by SQL into a fresh database, then read as
// the console's first load of the page reads it, three times (the first read after a restart, then kept).
//   npx tsx bench/trace-view/phases.ts [--db pglite|postgres] [--spans 100000]
// PostgreSQL at TEST_DATABASE_URL (else postgresql://postgres@127.0.0.1:5432/postgres), a fresh database dropped
// afterwards; PGlite in a temporary directory.
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { sql } from "../../server/db/sql.ts";
import { pgliteStorage, postgresStorage, type Storage } from "../ingest/server-process.ts";
import * as q from "../../server/trace-view/trace-view.queries.ts";
import { getTraceWithWaterfall, searchWaterfall } from "../../server/trace-view/trace-view.service.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DB = arg("db", "pglite");
const SPANS = Number(arg("spans", "100000"));
const CHUNK = 10_000;

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const out = await fn();
  console.log(`${label}: ${(performance.now() - start).toFixed(0)} ms`);
  return out;
}

async function generate(db: Database, org: string, traceId: string, rootId: string) {
  const t0 = new Date("2026-11-22T10:00:00Z");
  await db.sql.query(sql`INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, ingestion_type, started_at, updated_at)
    VALUES (${org}::uuid, ${traceId}::uuid, ${traceId}, 'loop', 'completed', 'captured', ${t0}::timestamptz, now())`);
  // Prose-like payloads: words from md5 digests, ~4 KB of JSON per span, which compresses as text does; 1,000 of
  // them made once, since making one per span took minutes.
  await db.sql.query(sql`CREATE TEMP TABLE payloads AS SELECT p, (SELECT string_agg(substr(md5(p || '-' || w), 1, 3 + w % 7), ' ')
    FROM generate_series(1, 500) w) AS text FROM generate_series(0, 999) p`);
  for (let from = 0; from < SPANS; from += CHUNK) {
    const to = Math.min(SPANS, from + CHUNK) - 1;
    await db.sql.query(sql`
      INSERT INTO spans (organization_id, id, trace_id, parent_span_id, source_span_id, source_trace_id, payload_type, name, type, raw_span,
        started_at, ended_at, duration_ms, is_final, model, input_tokens, output_tokens)
      SELECT ${org}::uuid, CASE WHEN i = 0 THEN ${rootId}::uuid ELSE md5(${traceId} || i)::uuid END, ${traceId}::uuid,
        CASE WHEN i = 0 THEN NULL ELSE ${rootId}::uuid END, md5(${traceId} || i), ${traceId}, 'sdk-function',
        CASE WHEN i = 0 THEN 'loop' WHEN i % 2 = 1 THEN 'llm-' || i ELSE 'tool-' || i END, CASE WHEN i % 2 = 1 THEN 'llm' ELSE 'function' END,
        json_build_object('span_data', json_build_object('input', pl.text)),
        ${t0}::timestamptz + i * interval '10 ms', ${t0}::timestamptz + i * interval '10 ms' + interval '5 ms', 5, true,
        CASE WHEN i % 2 = 1 THEN 'gpt-4o' END, CASE WHEN i % 2 = 1 THEN 100 END, CASE WHEN i % 2 = 1 THEN 20 END
      FROM generate_series(${from}::int, ${to}::int) i JOIN payloads pl ON pl.p = i % 1000`);
    process.stderr.write(`\rgenerated ${to + 1} / ${SPANS} spans`);
  }
  process.stderr.write("\n");
}

async function main() {
  const storage: Storage = DB === "pglite" ? await pgliteStorage() : await postgresStorage(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  let db: Database | undefined;
  try {
    db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL } : { dataDir: storage.env.REPRISE_DATA_DIR });
    await migrate(db.sql);
    const [{ id: org }] = (await db.sql.query<{ id: string }>(sql`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Bench') RETURNING id::text`)) as [{ id: string }];
    const traceId = crypto.randomUUID();
    const rootId = crypto.randomUUID();
    console.log(`organization ${org}, trace ${traceId}`);
    await timed(`${storage.label}: generate ${SPANS} spans`, () => generate(db!, org, traceId, rootId));
    const [size] = await db.sql.query<{ heap: string; total: string }>(sql`SELECT pg_size_pretty(pg_relation_size('spans')) AS heap, pg_size_pretty(pg_total_relation_size('spans')) AS total`);
    console.log(`spans table: heap ${size?.heap}, with toast and indexes ${size?.total}`);
    await timed("  selectTraceSkeleton, before any vacuum", () => q.selectTraceSkeleton(db!, org, traceId));
    // What marks the new pages all-visible, so the tree's read is index-only: on PostgreSQL autovacuum (after
    // 20,000 inserted spans, migration 0285; this machine's PostgreSQL runs with autovacuum off, so the bench
    // does what it would), on PGlite its thread once idle for a second (server/db/pglite-worker.mjs).
    const vacuumed = () => db!.sql.query<{ at: string | null }>(sql`SELECT coalesce(last_vacuum, last_autovacuum)::text AS at FROM pg_stat_user_tables WHERE relname = 'spans'`);
    await timed("  vacuum", async () => {
      if (db!.kind === "pglite") {
        while (!(await vacuumed())[0]?.at) await new Promise((r) => setTimeout(r, 1500));
      } else await db!.sql.query(sql`VACUUM (ANALYZE) spans`);
    });
    for (let i = 0; i < 2; i++) {
      const skeleton = await timed(`  selectTraceSkeleton (${i})`, () => q.selectTraceSkeleton(db!, org, traceId));
      if (i === 0) console.log(`    ${skeleton.spans.length} rows`);
    }
    const ids = (await q.selectTraceSkeleton(db, org, traceId)).spans.slice(0, 500).map(([id]) => id);
    await timed("  selectWaterfallRows (500)", () => q.selectWaterfallRows(db!, org, ids));
    for (let i = 0; i < 3; i++) {
      // A new version each time but the last: the first load of a changed trace reads its tree again.
      if (i < 2) await db.sql.query(sql`UPDATE traces SET updated_at = clock_timestamp() WHERE organization_id = ${org}::uuid AND id = ${traceId}::uuid`);
      const page = await timed(`  getTraceWithWaterfall (${i < 2 ? "tree read" : "tree kept"})`, () => getTraceWithWaterfall(db!, org, traceId, 500));
      if (i === 0) console.log(`    JSON of the answer: ${(JSON.stringify(page).length / 1024).toFixed(0)} KB`);
    }
    await timed("  searchWaterfall tool-49000", () => searchWaterfall(db!, org, traceId, "tool-49000", 50));
    console.log(`  server RSS now: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  } finally {
    await db?.close();
    await storage.cleanup();
  }
}

await main();
