// The server's memory while the REST export streams about 1 GB (bench/README.md, "Export of 1 GB: the server's
// RSS"; docs/operations.md, "Export and import"). One command, after `npm run build`:
//
//   npx tsx bench/export-rss.ts [--db postgres|pglite] [--traces 8000] [--spans-per-trace 50] [--span-bytes 2048]
//
// The built server (dist/server.mjs, as `npm start` runs it) gets a fresh database (PostgreSQL at
// BENCH_DATABASE_URL or TEST_DATABASE_URL, else local; or a PGlite data directory, written while the server is
// stopped). The database itself writes the traces set-based (generate_series): a small trace function of 50 traces
// and a large one of `--traces` traces of `--spans-per-trace` spans whose documents hold `--span-bytes` of text.
// Then, sampling the server's RSS (its process tree) every 50 ms, beside its own baseline in the same run:
//   idle        the server doing nothing, 5 s;
//   small       the export of the small function (a few MB);
//   full        the export of the large function (~1 GB), read as fast as the client can: RSS at each tenth;
//   paused      the same export again, the client reading 100 MB, then not reading for 15 s, then to the end: a
//               server that keeps pulling pages for a client that does not read would grow here;
//   after       idle again, 5 s.
import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../server/db/client.ts";
import { sql, type SqlDatabase } from "../server/db/sql.ts";
import { BENCH_API_KEY, pgliteStorage, postgresStorage, startServer, treeRss, type RunningServer, type Storage } from "./ingest/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DB = arg("db", "postgres");
const TRACES = Number(arg("traces", "8000"));
const SPANS_PER_TRACE = Number(arg("spans-per-trace", "50"));
const SPAN_BYTES = Number(arg("span-bytes", "2048"));
const SMALL_TRACES = 50;
const PORT = Number(process.env.BENCH_PORT ?? 3372);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const root = path.resolve(import.meta.dirname, "..");
const MB = 1e6;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

/** The traces of one function, `spans` spans each with `bytes` of text in its document; in chunks of 500 traces. */
async function generate(db: SqlDatabase, organizationId: string, fn: string, traces: number, spans: number, bytes: number): Promise<void> {
  const org = sql`${organizationId}::uuid`;
  const repeats = Math.max(1, Math.round(bytes / 32));
  for (let first = 0; first < traces; first += 500) {
    const last = Math.min(traces, first + 500) - 1;
    await db.query(sql`
      INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, started_at, ended_at, completed_at, final_span_count)
      SELECT ${org}, md5(${fn} || 't' || n)::uuid, ${fn} || n, ${fn}, 'completed',
        now() - n * INTERVAL '1 second', now() - n * INTERVAL '1 second' + INTERVAL '2 seconds', now(), ${spans}
      FROM generate_series(${first}::int, ${last}::int) AS n`);
    await db.query(sql`
      INSERT INTO spans (organization_id, id, trace_id, source_span_id, source_trace_id, payload_type, trace_function_key, node_key,
        name, type, raw_span, started_at, ended_at, is_final, duration_ms)
      SELECT ${org}, md5(${fn} || 's' || n || '.' || k)::uuid, md5(${fn} || 't' || n)::uuid, 's' || n || '.' || k, ${fn} || n, 'sdk-function',
        ${fn}, ${fn}, 'step-' || k, 'llm',
        json_build_object('id', md5(${fn} || 's' || n || '.' || k)::uuid, 'span_data', json_build_object('name', 'step-' || k, 'input', repeat(md5(n || '.' || k), ${repeats}))),
        now() - n * INTERVAL '1 second' + k * INTERVAL '10 milliseconds', now() - n * INTERVAL '1 second' + k * INTERVAL '10 milliseconds' + INTERVAL '5 milliseconds', true, 5
      FROM generate_series(${first}::int, ${last}::int) AS n CROSS JOIN generate_series(0, ${spans - 1}::int) AS k`);
  }
}

/** Samples the server's RSS every 50 ms until stopped; `since(t)` the samples after time t. */
function sampler(pid: number) {
  const samples: Array<[number, number]> = [];
  const timer = setInterval(() => samples.push([Date.now(), treeRss(pid)]), 50);
  return {
    samples,
    stop: () => clearInterval(timer),
    window: (from: number, to = Date.now()) => samples.filter(([t]) => t >= from && t <= to).map(([, r]) => r),
  };
}

const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Streams an export, calling `onBytes` as it goes; returns the bytes and lines read. */
async function readExport(server: RunningServer, fn: string, onBytes: (total: number) => Promise<void> | void = () => {}): Promise<{ bytes: number; lines: number; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${server.url}/api/sdk/export?traceFunctionKey=${fn}`, { headers: { authorization: `Bearer ${BENCH_API_KEY}` } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    for (const b of value) if (b === 10) lines++;
    await onBytes(bytes);
  }
  return { bytes, lines, ms: Date.now() - started };
}

async function organizationOf(storage: Storage): Promise<string> {
  if (storage.env.DATABASE_URL) {
    const c = new pg.Client({ connectionString: storage.env.DATABASE_URL });
    await c.connect();
    try {
      return (await c.query<{ id: string }>("SELECT id::text AS id FROM organizations LIMIT 1")).rows[0]!.id;
    } finally {
      await c.end();
    }
  }
  const db = await openDatabase({ dataDir: storage.env.REPRISE_DATA_DIR! });
  try {
    return (await db.sql.query<{ id: string }>(sql`SELECT id::text AS id FROM organizations LIMIT 1`))[0]!.id;
  } finally {
    await db.close();
  }
}

async function withDatabase(storage: Storage, fn: (db: SqlDatabase) => Promise<void>): Promise<void> {
  const db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL, maxConnections: 2 } : { dataDir: storage.env.REPRISE_DATA_DIR! });
  try {
    await fn(db.sql);
  } finally {
    await db.close();
  }
}

const storage = DB === "pglite" ? await pgliteStorage() : await postgresStorage(PG_URL);
let server: RunningServer | undefined;
try {
  // The server's first start migrates the database and makes the organization; PGlite's folder is then written
  // while the server is stopped (one process at a time opens it).
  server = await startServer(root, PORT, storage);
  if (DB === "pglite") {
    await server.stop();
    server = undefined;
  }
  const organizationId = await organizationOf(storage);
  const generated = Date.now();
  await withDatabase(storage, async (db) => {
    await generate(db, organizationId, "small", SMALL_TRACES, SPANS_PER_TRACE, SPAN_BYTES);
    await generate(db, organizationId, "large", TRACES, SPANS_PER_TRACE, SPAN_BYTES);
    if (DB !== "pglite") await db.query(sql`ANALYZE`);
  });
  console.log(`${storage.label}: generated ${TRACES} + ${SMALL_TRACES} traces of ${SPANS_PER_TRACE} spans (${SPAN_BYTES} B of text each) in ${((Date.now() - generated) / 1000).toFixed(0)} s`);
  server ??= await startServer(root, PORT, storage);
  const rss = sampler(server.pid);
  const load = () => `load ${spawnSync("cat", ["/proc/loadavg"]).stdout.toString().split(" ")[0]}`;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  let t = Date.now();
  await pause(5_000);
  const idle = rss.window(t);
  console.log(`idle        RSS median ${mb(median(idle))}, max ${mb(max(idle))}  (${load()})`);

  t = Date.now();
  const small = await readExport(server, "small");
  console.log(`small       ${mb(small.bytes)} (${small.lines} lines) in ${(small.ms / 1000).toFixed(1)} s: RSS max ${mb(max(rss.window(t)))}, after ${mb(treeRss(server.pid))}  (${load()})`);

  t = Date.now();
  const tenths: string[] = [];
  let nextTenth = 0;
  const expected = small.bytes * (TRACES / SMALL_TRACES);
  const full = await readExport(server, "large", (bytes) => {
    if (bytes >= nextTenth) {
      tenths.push(mb(treeRss(server!.pid)));
      nextTenth += expected / 10;
    }
  });
  const fullRss = rss.window(t);
  console.log(`full        ${mb(full.bytes)} (${full.lines} lines) in ${(full.ms / 1000).toFixed(0)} s (${(full.bytes / MB / (full.ms / 1000)).toFixed(0)} MB/s): RSS median ${mb(median(fullRss))}, max ${mb(max(fullRss))}  (${load()})`);
  console.log(`            RSS at each tenth of the stream: ${tenths.join(", ")}`);

  t = Date.now();
  let paused = false;
  let pausedRss: number[] = [];
  const slow = await readExport(server, "large", async (bytes) => {
    if (!paused && bytes >= 100 * MB) {
      paused = true;
      const from = Date.now();
      await pause(15_000);
      pausedRss = rss.window(from);
    }
  });
  const slowRss = rss.window(t);
  console.log(`paused      ${mb(slow.bytes)} in ${(slow.ms / 1000).toFixed(0)} s, 15 s without reading after 100 MB: RSS during the pause ${mb(Math.min(...pausedRss))}-${mb(max(pausedRss))}, whole export max ${mb(max(slowRss))}  (${load()})`);

  t = Date.now();
  await pause(5_000);
  const after = rss.window(t);
  console.log(`after       RSS median ${mb(median(after))}, max ${mb(max(after))}  (${load()})`);
  rss.stop();
} finally {
  await server?.stop();
  await storage.cleanup();
}
process.exit(0);
