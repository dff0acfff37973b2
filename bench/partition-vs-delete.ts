// Removing a day of spans: row deletes in bounded batches (what the retention purge does) against dropping a daily
// time partition, on PostgreSQL (bench/README.md, "Row deletes against dropping time partitions").
//   npx tsx bench/partition-vs-delete.ts [--spans 200000] [--days 10] [--batch 2000]
// A scratch database gets two tables shaped like `spans` (organization_id, id, trace_id, created_at, a ~1 KB
// raw_span): one plain, with the purge's index; one partitioned by day on created_at. Both receive the same --spans
// rows spread over --days days; then the oldest day goes, by batched DELETEs from the plain table and by DROP of
// its partition from the other. Reports the time of each and the table sizes before and after.
import { randomUUID } from "node:crypto";
import pg from "pg";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const SPANS = Number(arg("spans", "200000"));
const DAYS = Number(arg("days", "10"));
const BATCH = Number(arg("batch", "2000"));
const BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const name = `reprise_bench_parts_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
await withClient(BASE, (c) => c.query(`CREATE DATABASE ${name}`));
const url = new URL(BASE);
url.pathname = `/${name}`;
try {
  await withClient(url.toString(), async (c) => {
    const columns = `organization_id uuid NOT NULL, id uuid NOT NULL, trace_id uuid NOT NULL, created_at timestamptz NOT NULL, raw_span json NOT NULL`;
    await c.query(`CREATE TABLE plain (${columns}, PRIMARY KEY (organization_id, id))`);
    await c.query(`CREATE INDEX ON plain (organization_id, trace_id)`);
    await c.query(`CREATE TABLE parted (${columns}, PRIMARY KEY (organization_id, id, created_at)) PARTITION BY RANGE (created_at)`);
    await c.query(`CREATE INDEX ON parted (organization_id, trace_id)`);
    for (let d = 0; d < DAYS; d++) {
      await c.query(`CREATE TABLE parted_d${d} PARTITION OF parted FOR VALUES FROM (date '2026-01-01' + ${d}) TO (date '2026-01-01' + ${d + 1})`);
    }
    const org = randomUUID();
    const fill = async (table: string) => {
      const started = performance.now();
      await c.query(`
        INSERT INTO ${table}
        SELECT $1::uuid, gen_random_uuid(), gen_random_uuid(),
          timestamptz '2026-01-01' + ((g % ${DAYS}) * interval '1 day') + (g % 86000) * interval '1 second',
          json_build_object('span_data', json_build_object('input', repeat('x', 1000)))
        FROM generate_series(1, ${SPANS}) AS g`, [org]);
      return performance.now() - started;
    };
    const size = async (table: string) => (await c.query(`SELECT pg_size_pretty(pg_total_relation_size('${table}')) AS s`)).rows[0].s;
    const sizeParted = async () =>
      (await c.query(`SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS s FROM pg_inherits WHERE inhparent = 'parted'::regclass`)).rows[0].s;
    const fillPlain = await fill("plain");
    const fillParted = await fill("parted");
    await c.query("VACUUM ANALYZE plain");
    await c.query("VACUUM ANALYZE parted");
    console.log(`${SPANS} spans over ${DAYS} days: insert plain ${(fillPlain / 1000).toFixed(1)} s, partitioned ${(fillParted / 1000).toFixed(1)} s; sizes ${await size("plain")} / ${await sizeParted()}`);

    let deleted = 0;
    const startedDelete = performance.now();
    for (;;) {
      const r = await c.query(`
        DELETE FROM plain WHERE organization_id = $1 AND id IN (
          SELECT id FROM plain WHERE organization_id = $1 AND created_at < timestamptz '2026-01-02' LIMIT ${BATCH})`, [org]);
      deleted += r.rowCount ?? 0;
      if ((r.rowCount ?? 0) < BATCH) break;
    }
    const deleteMs = performance.now() - startedDelete;
    const startedDrop = performance.now();
    await c.query("DROP TABLE parted_d0");
    const dropMs = performance.now() - startedDrop;
    console.log(`oldest day: ${deleted} rows deleted in batches of ${BATCH} in ${(deleteMs / 1000).toFixed(2)} s (${((deleteMs * 1000) / Math.max(1, deleted)).toFixed(0)} µs/row); its partition dropped in ${dropMs.toFixed(1)} ms`);
    console.log(`sizes after: plain ${await size("plain")} (space reused, not returned, until VACUUM FULL), partitioned ${await sizeParted()}`);
  });
} finally {
  await withClient(BASE, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
