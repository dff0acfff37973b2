// Ingestion's latency with and without a retention sweep deleting spans, alternating in one run on one database
// (bench/README.md, "Retention sweep"; docs/operations.md, "Retention").
//   npx tsx bench/retention.ts [--db pglite|postgres] [--old-traces 40000] [--spans-per-trace 50] [--pairs 10]
//                              [--window 30] [--concurrency 8]
// One database holds `--old-traces` aged traces of one organization (`--spans-per-trace` spans of ~1 KB each,
// received 40 days ago; the organization keeps 30 days). After a warm-up, `--pairs` pairs of windows of `--window`
// seconds alternate: in a baseline window OTLP requests go through the real ingestion handler (in this process, on
// the real database); in a sweep window the same load runs while the real sweep (`sweepRetention`, what the
// scheduled job runs) works through the backlog, stopped by its abort signal at the window's end and taken up again
// in the next sweep window. Short alternating windows put a change of a shared machine's load on both sides.
// Reports each window's p50/p99, the rows the sweep removed, the pooled p99 of the sweep windows over that of the
// baselines, and the median of the pairs' ratios (the target: at most 1.5).
import { randomUUID } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { cliActor } from "../server/auth/audit/actor.ts";
import { createOrganization } from "../server/auth/auth.service.ts";
import { setRetention } from "../server/auth/settings/retention.service.ts";
import { openDatabase, type Database } from "../server/db/client.ts";
import { setDb } from "../server/db.ts";
import { migrate } from "../server/db/migrator.ts";
import { sql } from "../server/db/sql.ts";
import { postOtlpTraces } from "../server/ingest/otlp/otlp.http.ts";
import { sweepRetention } from "../server/lifecycle/retention/retention.service.ts";
import { buildRequest, carriers } from "./ingest/requests.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DB = arg("db", "pglite");
const OLD_TRACES = Number(arg("old-traces", "40000"));
const SPANS_PER_TRACE = Number(arg("spans-per-trace", "50"));
const PAIRS = Number(arg("pairs", "10"));
const WINDOW = Number(arg("window", "30"));
const CONCURRENCY = Number(arg("concurrency", "8"));
/** Requests before the measured load, so every window measures a warm process. */
const WARMUP_MS = 5_000;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function freshDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (DB === "pglite") {
    const db = await openDatabase({ dataDir: "memory://" });
    await migrate(db.sql);
    return { db, drop: () => db.close() };
  }
  const name = `reprise_bench_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), maxConnections: 10 });
  await migrate(db.sql);
  return { db, drop: async () => { await db.close(); await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); } };
}

/** The aged traces with their spans (~1 KB each), received `days` ago, written set-based. */
async function seedAged(db: Database, organizationId: string, days: number): Promise<void> {
  const org = sql`${organizationId}::uuid`;
  for (let done = 0; done < OLD_TRACES; done += 500) {
    const n = Math.min(500, OLD_TRACES - done);
    await db.sql.query(sql`
      WITH t AS (
        INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, created_at, updated_at)
        SELECT ${org}, gen_random_uuid(), 'aged', 'aged', 'completed', now() - make_interval(days => ${days}::int), now() FROM generate_series(1, ${n})
        RETURNING id, created_at)
      INSERT INTO spans (organization_id, id, trace_id, source_span_id, source_trace_id, payload_type, name, raw_span, created_at, updated_at)
      SELECT ${org}, gen_random_uuid(), t.id, 's' || g, t.id::text, 'sdk-function', 'step',
        json_build_object('span_data', json_build_object('input', repeat('x', 1000))), t.created_at, t.created_at
      FROM t, generate_series(1, ${SPANS_PER_TRACE}) AS g`);
  }
}

/** Sends the load until `stop()` says so; returns each request's latency in ms. */
async function load(apiKey: string, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const worker = async () => {
    while (!stop()) {
      const { body } = buildRequest("json", carriers(4, 8, 1000), 1);
      const request = new Request("http://bench/api/sdk/otel/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "content-encoding": "gzip" },
        body: new Uint8Array(body),
      });
      const started = performance.now();
      const res = await postOtlpTraces(request, { params: Promise.resolve({}) });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`ingestion answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return latencies;
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function countSpans(db: Database, organizationId: string): Promise<number> {
  const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM spans WHERE organization_id = ${organizationId}::uuid`);
  return rows[0]!.n;
}

interface TWindow {
  name: "baseline" | "sweep";
  latencies: number[];
  seconds: number;
  load: number;
  swept?: { traces: number; spanRows: number };
}

const { db, drop } = await freshDatabase();
setDb(db);
const windows: TWindow[] = [];
let aged = 0;
let left = 0;
try {
  const org = await createOrganization(db, { name: "bench", email: `bench-${randomUUID()}@example.com`, password: "correct horse battery" });
  const seedStart = Date.now();
  await seedAged(db, org.organizationId, 40);
  aged = await countSpans(db, org.organizationId);
  console.log(`seeded ${aged} aged spans in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);
  if (DB !== "pglite") await db.sql.query(sql`ANALYZE`);
  await setRetention(db, org.organizationId, cliActor, 30);
  await load(org.apiKey, ((until) => () => Date.now() > until)(Date.now() + WARMUP_MS));

  for (let pair = 0; pair < PAIRS; pair++) {
    for (const name of ["baseline", "sweep"] as const) {
      const started = Date.now();
      const until = started + WINDOW * 1000;
      const stop = new AbortController();
      const sweep = name === "sweep" ? sweepRetention(db, new Date(), stop.signal) : Promise.resolve(undefined);
      const latencies = await load(org.apiKey, () => Date.now() > until);
      stop.abort();
      const swept = await sweep;
      windows.push({ name, latencies, seconds: (Date.now() - started) / 1000, load: os.loadavg()[0]!, swept });
      console.log(fmt(windows.at(-1)!));
    }
  }
  left = await countSpans(db, org.organizationId);
} finally {
  setDb(undefined);
  await drop();
}

function fmt(w: TWindow) {
  return `${w.name.padEnd(8)} ${w.seconds.toFixed(0).padStart(4)} s  requests ${String(w.latencies.length).padStart(5)}  p50 ${pct(w.latencies, 50).toFixed(0).padStart(5)} ms  p99 ${pct(w.latencies, 99).toFixed(0).padStart(5)} ms  load ${w.load.toFixed(1)}` +
    (w.swept ? `  swept ${w.swept.traces} traces, ${w.swept.spanRows} span rows (${(w.swept.spanRows / w.seconds).toFixed(0)} rows/s)` : "");
}

const pooled = (name: string) => windows.filter((w) => w.name === name).flatMap((w) => w.latencies);
const ratios = Array.from({ length: PAIRS }, (_, i) => pct(windows[2 * i + 1]!.latencies, 99) / pct(windows[2 * i]!.latencies, 99)).sort((a, b) => a - b);
const sweptRows = windows.reduce((a, w) => a + (w.swept?.spanRows ?? 0), 0);
const sweepSeconds = windows.filter((w) => w.name === "sweep").reduce((a, w) => a + w.seconds, 0);
console.log(`retention bench on ${DB}: ${aged} aged spans (${OLD_TRACES} traces x ${SPANS_PER_TRACE}), ${PAIRS} pairs of ${WINDOW} s windows, concurrency ${CONCURRENCY}, ${os.cpus().length} cores`);
console.log(`the sweep removed ${sweptRows} span rows in ${sweepSeconds.toFixed(0)} s of sweep windows (${(sweptRows / sweepSeconds).toFixed(0)} rows/s); ${left} spans in the organization at the end (the ingested ones included)`);
console.log(`requests: baselines ${pooled("baseline").length}, sweeps ${pooled("sweep").length}; p50 ${pct(pooled("baseline"), 50).toFixed(0)} / ${pct(pooled("sweep"), 50).toFixed(0)} ms`);
console.log(`p99 pooled: baselines ${pct(pooled("baseline"), 99).toFixed(0)} ms, sweeps ${pct(pooled("sweep"), 99).toFixed(0)} ms; with the sweep / without: ${(pct(pooled("sweep"), 99) / pct(pooled("baseline"), 99)).toFixed(2)} (target <= 1.5)`);
console.log(`pairs' p99 ratios: median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}, range ${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}`);
process.exit(0);
