// Ingestion's latency with and without a retention sweep deleting spans, side by side in one run
// (bench/README.md, "Retention sweep"; docs/operations.md, "Retention").
//   npx tsx bench/retention.ts [--db pglite|postgres] [--old-traces 2000] [--spans-per-trace 50] [--seconds 20] [--concurrency 4]
// Each phase gets a fresh database holding the same aged traces (received 40 days ago, a 30-day retention period):
// "baseline" sends OTLP requests through the real handler (in this process, on the real database) for --seconds;
// "sweep" sends the same load while the retention sweep removes the aged traces and purges their spans. Reports each
// phase's request p50/p99, their ratio, and how many spans the sweep deleted meanwhile. The target: the
// sweep's p99 within 1.5x of the baseline's; its measurement at millions of spans belongs on a quiet machine.
import { cliActor } from "../server/auth/audit/actor.ts";
import { randomUUID } from "node:crypto";
import pg from "pg";
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
const OLD_TRACES = Number(arg("old-traces", "2000"));
const SPANS_PER_TRACE = Number(arg("spans-per-trace", "50"));
const SECONDS = Number(arg("seconds", "20"));
const CONCURRENCY = Number(arg("concurrency", "4"));
/** Requests before the measured load, so both phases measure a warm process. */
const WARMUP_MS = 2_000;
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

/** Aged traces with their spans (~1 KB each), received 40 days ago, written set-based. */
async function seedAged(db: Database, organizationId: string): Promise<void> {
  const org = sql`${organizationId}::uuid`;
  for (let done = 0; done < OLD_TRACES; done += 500) {
    const n = Math.min(500, OLD_TRACES - done);
    await db.sql.query(sql`
      WITH t AS (
        INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, created_at, updated_at)
        SELECT ${org}, gen_random_uuid(), 'aged', 'aged', 'completed', now() - interval '40 days', now() FROM generate_series(1, ${n})
        RETURNING id, created_at)
      INSERT INTO spans (organization_id, id, trace_id, source_span_id, source_trace_id, payload_type, name, raw_span, created_at, updated_at)
      SELECT ${org}, gen_random_uuid(), t.id, 's' || g, t.id::text, 'sdk-function', 'step',
        json_build_object('span_data', json_build_object('input', repeat('x', 1000))), t.created_at, t.created_at
      FROM t, generate_series(1, ${SPANS_PER_TRACE}) AS g`);
  }
}

async function load(apiKey: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  const worker = async () => {
    while (Date.now() < until) {
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

async function phase(name: "baseline" | "sweep") {
  const { db, drop } = await freshDatabase();
  setDb(db);
  try {
    const org = await createOrganization(db, { name: "bench", email: `bench-${randomUUID()}@example.com`, password: "correct horse battery" });
    await seedAged(db, org.organizationId);
    await setRetention(db, org.organizationId, cliActor, 30);
    const spansBefore = await countSpans(db, org.organizationId);
    await load(org.apiKey, Date.now() + WARMUP_MS);
    const until = Date.now() + SECONDS * 1000;
    const sweepStart = Date.now();
    const sweep = name === "sweep" ? sweepRetention(db).then((r) => ({ ...r, ms: Date.now() - sweepStart })) : Promise.resolve(null);
    const [latencies, swept] = await Promise.all([load(org.apiKey, until), sweep]);
    return { name, requests: latencies.length, p50: pct(latencies, 50), p99: pct(latencies, 99), spansBefore, swept };
  } finally {
    setDb(undefined);
    await drop();
  }
}

async function countSpans(db: Database, organizationId: string): Promise<number> {
  const rows = await db.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM spans WHERE organization_id = ${organizationId}::uuid`);
  return rows[0]!.n;
}

const baseline = await phase("baseline");
const sweep = await phase("sweep");
const fmt = (r: typeof baseline) =>
  `${r.name.padEnd(8)} requests ${String(r.requests).padStart(5)}  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  aged spans ${r.spansBefore}` +
  (r.swept ? `  swept ${r.swept.traces} traces, ${r.swept.spanRows} span rows in ${(r.swept.ms / 1000).toFixed(1)} s${r.swept.ms > SECONDS * 1000 ? " (longer than the load)" : ""}` : "");
console.log(`retention bench on ${DB}: ${OLD_TRACES} aged traces x ${SPANS_PER_TRACE} spans, ${SECONDS} s at concurrency ${CONCURRENCY}`);
console.log(fmt(baseline));
console.log(fmt(sweep));
console.log(`p99 with the sweep / without: ${(sweep.p99 / baseline.p99).toFixed(2)} (target <= 1.5)`);
process.exit(0);
