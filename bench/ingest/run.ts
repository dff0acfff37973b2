// The ingestion benchmark: Reprise and a floor, side by side in one run on the same machine.
//   npm run build && npx tsx bench/ingest/run.ts [--db both|postgres,pglite,citus] [--seconds 60] [--warmup 3]
//     [--concurrency 8] [--parts floor,reprise,big,trace10k[,trace100k]] [--max-rate 13000] [--app-dir DIR] [--fresh-bodies]
//     [--ports 3900-3989]
// --parts …,redaction adds a second Reprise on a fresh database with ten redaction rules in force (four
// built-ins, four patterns, two fields), the same bodies, reported beside the run without rules; with
// --redaction-rounds N, N runs without rules and N with them alternate (`--parts redaction` alone needs no other part).
// Per database: the floor (bench/ingest/floor.ts) on a fresh database, then Reprise (its server entry, dist/server.mjs) on
// another fresh database, the same request bodies to both: a warm-up, then --seconds of sustained load
// from --concurrency keep-alive connections. Then, on Reprise only: 8 MB requests at concurrency 8, and
// one trace of 10,000 spans (its completion, and its console page in Chromium), and with --parts …,trace100k one of
// 100,000 (its console page's first rows, a scroll, a collapse and a search, and the server's peak RSS meanwhile). Reports spans/s, the
// ratio to the floor, request p50/p99, the peak RSS of each server's process tree, and checks that a
// sample of acknowledged spans reads back as sent, how soon after the acknowledgment, and that every
// trace whose spans and completion were all stored completed exactly once.
import http from "node:http";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import { bigTrace, buildRequest, carriers, carrierStream, type SentSpan } from "./requests.ts";
import { BENCH_API_KEY, citusStorage, cpuMeter, pgliteStorage, postgresStorage, startServer, watchRss, type Storage } from "./server-process.ts";
import { findChromium } from "../../e2e/find-chromium.ts";
import { openDatabase } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { sql } from "../../server/db/sql.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const HERE = path.dirname(fileURLToPath(import.meta.url));
// --app-dir: a directory holding a copy of the build (with node_modules linked), so builds by others in
// a shared working tree cannot swap the app out from under a run.
const ROOT = path.resolve(arg("app-dir", path.resolve(HERE, "../..")));
const SECONDS = Number(arg("seconds", "60"));
const WARMUP = Number(arg("warmup", "3"));
const CONCURRENCY = Number(arg("concurrency", "8"));
const MAX_RATE = Number(arg("max-rate", "13000"));
// --db both (PostgreSQL, then PGlite), or a list of postgres, pglite, citus (a local 3-node cluster started for it).
const DBS = arg("db", "both") === "both" ? ["postgres", "pglite"] : arg("db", "both").split(",");
const PARTS = new Set(arg("parts", "floor,reprise,big,trace10k").split(","));
// --redaction-rounds N: the redaction part alternates N runs without rules and N with them (see benchmarkRedaction).
const REDACTION_ROUNDS = Number(arg("redaction-rounds", "1"));
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const SPANS_PER_TRACE = 16;
const CARRIERS_PER_REQUEST = 128;

// ---------------------------------------------------------------------------------------------------
// Request bodies, all built before any server starts (the generator shares the two cores otherwise).

interface PoolRequest {
  body: Buffer;
  spans: number;
  /** One span of the request, to read back. */
  sample: SentSpan;
}

function buildPool(count: number): PoolRequest[] {
  const stream = carrierStream(SPANS_PER_TRACE, CARRIERS_PER_REQUEST, 3600);
  const pool: PoolRequest[] = [];
  for (let i = 0; i < count; i++) {
    const { payloads, spans } = stream.next();
    // gzip level 1 (see buildRequest): thousands of bodies are built before the run.
    pool.push({ body: buildRequest("json", payloads, 1).body, spans: spans.length, sample: spans[Math.floor(Math.random() * spans.length)] });
  }
  return pool;
}

/**
 * Building a body costs ~40 ms of CPU (more on a busy box), and a minute of load needs thousands. Every
 * server gets a fresh database, so the same bodies serve every run: they are kept in the temporary
 * directory and built again only when missing (--fresh-bodies builds them anew).
 */
function cachedPool(count: number): PoolRequest[] {
  const file = path.join(os.tmpdir(), `reprise-bench-bodies-v1-${count}`);
  if (fs.existsSync(`${file}.json`) && !process.argv.includes("--fresh-bodies")) {
    const index = JSON.parse(fs.readFileSync(`${file}.json`, "utf8")) as Array<{ offset: number; length: number; spans: number; sample: SentSpan }>;
    const bodies = fs.readFileSync(`${file}.bin`);
    return index.map((r) => ({ body: bodies.subarray(r.offset, r.offset + r.length), spans: r.spans, sample: r.sample }));
  }
  const pool = buildPool(count);
  let offset = 0;
  const index = pool.map((r) => {
    const entry = { offset, length: r.body.length, spans: r.spans, sample: r.sample };
    offset += r.body.length;
    return entry;
  });
  fs.writeFileSync(`${file}.bin`, Buffer.concat(pool.map((r) => r.body)));
  fs.writeFileSync(`${file}.json`, JSON.stringify(index));
  return pool;
}

// ---------------------------------------------------------------------------------------------------
// Load: node:http with keep-alive (undici's fetch costs several ms of CPU per request on shared cores).

// A fresh agent per phase: a socket left idle between phases may be closed by the server (keep-alive
// timeout) just as the next phase reuses it.
let agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const freshAgent = () => {
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
};
const errorSamples: string[] = [];
const noteError = (what: string) => {
  if (errorSamples.length < 5) errorSamples.push(what.slice(0, 300));
  return false;
};

function request(url: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: body ? { ...headers, "content-length": String(body.length) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const OTLP_HEADERS = { authorization: `Bearer ${BENCH_API_KEY}`, "content-type": "application/json", "content-encoding": "gzip" };

async function send(url: string, body: Buffer): Promise<boolean> {
  const res = await request(url, "POST", OTLP_HEADERS, body);
  if (res.status !== 200) return noteError(`${res.status} ${res.body.toString().slice(0, 200)}`);
  // A partial success would mean carriers were rejected: count it as an error.
  return !JSON.parse(res.body.toString()).partialSuccess || noteError(`partial success: ${res.body.toString().slice(0, 200)}`);
}

interface LoadResult {
  requests: number;
  spans: number;
  seconds: number;
  latencies: number[];
  errors: number;
  acked: PoolRequest[];
  exhausted: boolean;
}

/** Sends pool[cursor.next…] from `concurrency` connections for `seconds`; onAck runs after each 200. */
async function load(url: string, pool: PoolRequest[], cursor: { next: number }, concurrency: number, seconds: number, onAck?: (r: PoolRequest) => void): Promise<LoadResult> {
  freshAgent();
  const latencies: number[] = [];
  const acked: PoolRequest[] = [];
  let spans = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (cursor.next < pool.length && performance.now() < deadline) {
      const r = pool[cursor.next++];
      const t = performance.now();
      const ok = await send(url, r.body).catch((e: Error) => noteError(`${e.message} ${String((e as { cause?: unknown }).cause ?? "")}`));
      latencies.push(performance.now() - t);
      if (ok) {
        spans += r.spans;
        acked.push(r);
        onAck?.(r);
      } else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, spans, seconds: elapsed, latencies, errors, acked, exhausted: cursor.next >= pool.length && elapsed < seconds - 0.5 };
}

/** The pool of a fixed scenario is meant to be used up. */
function fixed(r: LoadResult): LoadResult {
  return { ...r, exhausted: false };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

// ---------------------------------------------------------------------------------------------------
// Servers.

/**
 * A port no server of this run has used: a server just stopped may hold its port a moment longer (a floor
 * once drew the port of the Reprise server before it and failed with EADDRINUSE).
 */
const usedPorts = new Set<number>();
/** --ports FIRST-LAST: where the servers listen (several engineers share the machine, each with a range). */
const [PORT_FIRST, PORT_LAST] = arg("ports", "3900-3989").split("-").map(Number) as [number, number];
const freePort = () => {
  let port: number;
  do port = PORT_FIRST + Math.floor(Math.random() * (PORT_LAST - PORT_FIRST + 1));
  while (usedPorts.has(port));
  usedPorts.add(port);
  return port;
};

/** Migrates a fresh database and creates the benchmark's organization; returns its id. */
async function prepareDatabase(storage: Storage): Promise<string> {
  const db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL } : { dataDir: storage.env.REPRISE_DATA_DIR });
  try {
    await migrate(db.sql);
    // BENCH_EXPERIMENT="<sql>" runs after migrating (floor and Reprise alike), to try a schema change first.
    if (process.env.BENCH_EXPERIMENT) await db.sql.exec(process.env.BENCH_EXPERIMENT);
    const [{ id }] = await db.sql.query<{ id: string }>(sql`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Floor') RETURNING id::text`);
    return id;
  } finally {
    await db.close();
  }
}

async function startFloor(storage: Storage, organizationId: string) {
  const port = freePort();
  const child = spawn(process.execPath, [...(process.env.FLOOR_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", path.join(HERE, "floor.ts")], {
    cwd: path.resolve(HERE, "../.."),
    env: {
      ...process.env,
      FLOOR_PORT: String(port),
      FLOOR_ORG_ID: organizationId,
      DATABASE_URL: storage.env.DATABASE_URL ?? "",
      FLOOR_PGLITE_DIR: storage.env.REPRISE_DATA_DIR ?? "",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.on("exit", (code) => reject(new Error(`the floor exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    pid: child.pid!,
    stop: () => new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Checks.

/** Reads back a sample of acknowledged spans through the API; returns how many match what was sent. */
async function readBack(baseUrl: string, samples: SentSpan[]): Promise<{ checked: number; matched: number }> {
  let matched = 0;
  for (const s of samples) {
    const res = await request(`${baseUrl}/api/sdk/externalSpans/${s.id}`, "GET", { authorization: `Bearer ${BENCH_API_KEY}` });
    if (res.status === 200 && isDeepStrictEqual(JSON.parse(res.body.toString()).rawData, s.rawSpan)) matched++;
    else noteError(`read-back of span ${s.id}: ${res.status} ${res.body.toString().slice(0, 200)}`);
  }
  return { checked: samples.length, matched };
}

/** How long after its acknowledgment a span first reads back (ms), polling every 20 ms for 5 s. */
async function readableAfterAck(baseUrl: string, s: SentSpan): Promise<number> {
  const acked = performance.now();
  while (performance.now() - acked < 5000) {
    const res = await request(`${baseUrl}/api/sdk/externalSpans/${s.id}`, "GET", { authorization: `Bearer ${BENCH_API_KEY}` });
    if (res.status === 200) return performance.now() - acked;
    await new Promise((r) => setTimeout(r, 20));
  }
  return Infinity;
}

/** Every trace whose completion and spans are all stored completed, with exactly one completion event. */
async function completionCheck(storage: Storage) {
  const db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL } : { dataDir: storage.env.REPRISE_DATA_DIR });
  try {
    const [row] = await db.sql.query<{ ready: number; completed: number; events: number; duplicates: number }>(sql`
      SELECT
        (SELECT count(*)::int FROM traces t WHERE t.completion_signal_at IS NOT NULL AND t.expected_span_count <= (
          SELECT count(*) FROM spans s WHERE s.organization_id = t.organization_id AND s.trace_id = t.id AND s.is_final)) AS ready,
        (SELECT count(*)::int FROM traces WHERE status = 'completed') AS completed,
        (SELECT count(*)::int FROM trace_events WHERE kind = 'trace.completed') AS events,
        (SELECT count(*)::int FROM (SELECT trace_id FROM trace_events WHERE kind = 'trace.completed' GROUP BY trace_id HAVING count(*) > 1) d) AS duplicates`);
    return row;
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// One database: floor, then Reprise.

interface Row {
  db: string;
  what: string;
  requests: number;
  spans: number;
  spansPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
  /** CPU ms (server + its database backends) per 1,000 spans; null where not measured. */
  cpuMsPerKSpans: number | null;
  /** Of which the PostgreSQL backends' (null on PGlite, which runs inside the server's process). */
  dbCpuMsPerKSpans: number | null;
  note: string;
}

const report: Row[] = [];
/** Each database's Reprise row without redaction rules, the baseline of the redaction part. */
const withoutRules = new Map<string, Row>();
const findings: string[] = [];

function row(db: string, what: string, r: LoadResult, peakRss: number, note = "", cpu?: { total: number; database: number }): Row {
  const perKSpans = (ms: number | undefined) => (ms === undefined || r.spans === 0 ? null : Math.round((ms / r.spans) * 1000));
  const out = {
    db,
    what,
    requests: r.requests,
    spans: r.spans,
    spansPerSecond: Math.round(r.spans / r.seconds),
    p50: Math.round(percentile(r.latencies, 50)),
    p99: Math.round(percentile(r.latencies, 99)),
    errors: r.errors,
    peakRssMb: Math.round(peakRss / 1e6),
    cpuMsPerKSpans: perKSpans(cpu?.total),
    // On Citus the coordinator's backends only: the workers' are not counted.
    dbCpuMsPerKSpans: db !== "pglite" ? perKSpans(cpu?.database) : null,
    note: r.exhausted ? `${note} (request pool ran out: raise --max-rate)` : note,
  };
  report.push(out);
  console.log(JSON.stringify(out));
  return out;
}

async function sustained(
  url: string,
  pool: PoolRequest[],
  rss: ReturnType<typeof watchRss>,
  cpu: ReturnType<typeof cpuMeter>,
  onAck?: (r: PoolRequest) => void,
): Promise<LoadResult & { cpuMs: { total: number; database: number } }> {
  const cursor = { next: 0 };
  await load(url, pool, cursor, CONCURRENCY, WARMUP);
  rss.reset();
  const before = await cpu.snapshot();
  const result = await load(url, pool, cursor, CONCURRENCY, SECONDS, onAck);
  return { ...result, cpuMs: cpu.spent(before, await cpu.snapshot()) };
}

function storageFor(db: string) {
  if (db === "postgres") return postgresStorage(PG_URL);
  if (db === "citus") return citusStorage();
  if (db === "pglite") return pgliteStorage();
  throw new Error(`--db: unknown database "${db}" (postgres, pglite, citus)`);
}

async function benchmarkFloor(db: string, pool: PoolRequest[], label: string): Promise<Row> {
  const storage = await storageFor(db);
  try {
    const org = await prepareDatabase(storage);
    const floor = await startFloor(storage, org);
    const rss = watchRss(floor.pid);
    try {
      const r = await sustained(floor.url, pool, rss, cpuMeter(floor.pid, storage.env.DATABASE_URL));
      return row(db, label, r, rss.peak(), "", r.cpuMs);
    } finally {
      rss.stop();
      await floor.stop();
    }
  } finally {
    await storage.cleanup();
  }
}

/** Ten rules: every built-in, four custom patterns and two masked fields (docs/operations.md, "Redaction"). */
const TEN_RULES = {
  builtins: ["secrets", "emails", "creditCards", "phones"],
  patterns: [
    { name: "account", pattern: "ACCT-[0-9]{8}" },
    { name: "ssn", pattern: "\\b[0-9]{3}-[0-9]{2}-[0-9]{4}\\b" },
    { name: "iban", pattern: "\\b[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}\\b" },
    { name: "ticket", pattern: "TCK-[0-9]{6}", flags: "i" },
  ],
  fields: ["password", "$.span_data.input.api_key"],
};

/** Reprise on a fresh database, with the ten rules in force or none, under the sustained load. */
async function redactionRun(db: string, pool: PoolRequest[], rules: typeof TEN_RULES | null, label: string): Promise<Row> {
  const storage = db === "postgres" ? await postgresStorage(PG_URL) : await pgliteStorage();
  const server = await startServer(ROOT, freePort(), storage);
  const rss = watchRss(server.pid);
  try {
    if (rules) {
      const res = await fetch(`${server.url}/api/sdk/redaction`, {
        method: "PUT",
        headers: { authorization: `Bearer ${BENCH_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ rules }),
      });
      if (res.status !== 200) throw new Error(`setting the redaction rules answered ${res.status}: ${await res.text()}`);
    }
    const r = await sustained(`${server.url}/api/sdk/otel/v1/traces`, pool, rss, cpuMeter(server.pid, storage.env.DATABASE_URL));
    return row(db, label, r, rss.peak(), "", r.cpuMs);
  } finally {
    rss.stop();
    await server.stop();
    await storage.cleanup();
  }
}

const noteAgainst = (withRules: Row, without: Row) => {
  const cpu = without.cpuMsPerKSpans && withRules.cpuMsPerKSpans ? `; CPU per span ${(withRules.cpuMsPerKSpans / without.cpuMsPerKSpans).toFixed(2)}× without rules` : "";
  return `${(withRules.spansPerSecond / without.spansPerSecond).toFixed(2)}× the spans/s without rules${cpu}`;
};

/**
 * Reprise with ten redaction rules on a fresh database, the same bodies as the run without rules. With
 * --redaction-rounds N, N rounds alternate a run without rules and one with them (each on a fresh database), so a
 * change of the shared machine's load falls on both sides; the finding compares the sums over the rounds.
 */
async function benchmarkRedaction(db: string, pool: PoolRequest[], without: Row | undefined) {
  if (REDACTION_ROUNDS <= 1) {
    const with10 = await redactionRun(db, pool, TEN_RULES, "Reprise, 10 redaction rules");
    if (without) {
      with10.note = noteAgainst(with10, without);
      findings.push(`${db}: ten redaction rules: ${with10.note}`);
    }
    return;
  }
  const off: Row[] = [];
  const on: Row[] = [];
  for (let round = 1; round <= REDACTION_ROUNDS; round++) {
    off.push(await redactionRun(db, pool, null, `Reprise, no rules (round ${round})`));
    on.push(await redactionRun(db, pool, TEN_RULES, `Reprise, 10 redaction rules (round ${round})`));
    on.at(-1)!.note = noteAgainst(on.at(-1)!, off.at(-1)!);
  }
  const total = (rows: Row[]): Row => {
    const spans = rows.reduce((a, r) => a + r.spans, 0);
    const perK = (f: (r: Row) => number | null) => (rows.every((r) => f(r) !== null) ? Math.round(rows.reduce((a, r) => a + f(r)! * r.spans, 0) / spans) : null);
    return { ...rows[0]!, spans, spansPerSecond: Math.round(rows.reduce((a, r) => a + r.spansPerSecond, 0) / rows.length), cpuMsPerKSpans: perK((r) => r.cpuMsPerKSpans) };
  };
  findings.push(`${db}: ten redaction rules over ${REDACTION_ROUNDS} alternating rounds: ${noteAgainst(total(on), total(off))} (per round: ${on.map((r) => r.note.split(";")[0]).join(", ")})`);
}

async function benchmarkReprise(db: string, pool: PoolRequest[], floorBefore: Row | undefined, floorAfter: () => Promise<Row | undefined>) {
  const storage = await storageFor(db);
  const port = freePort();
  const server = await startServer(ROOT, port, storage);
  const rss = watchRss(server.pid);
  const otlp = `${server.url}/api/sdk/otel/v1/traces`;
  try {
    if (PARTS.has("reprise")) {
      // Every 10th acknowledged request: how soon one of its spans reads back through the API.
      const fresh: Promise<number>[] = [];
      let acks = 0;
      const r = await sustained(otlp, pool, rss, cpuMeter(server.pid, storage.env.DATABASE_URL), (req) => {
        if (++acks % 10 === 0) fresh.push(readableAfterAck(server.url, req.sample));
      });
      const reprise = row(db, "Reprise", r, rss.peak(), "", r.cpuMs);
      withoutRules.set(db, reprise);
      const delays = (await Promise.all(fresh)).sort((a, b) => a - b);
      findings.push(`${db}: a span read back through the API right after its acknowledgment (under the full load): p50 ${percentile(delays, 50).toFixed(0)} ms, p99 ${percentile(delays, 99).toFixed(0)} ms, max ${delays.at(-1)?.toFixed(0)} ms over ${delays.length} samples`);
      freshAgent();
      const step = Math.max(1, Math.floor(r.acked.length / 200));
      const back = await readBack(server.url, r.acked.filter((_, i) => i % step === 0).map((x) => x.sample));
      findings.push(`${db}: read-back of acknowledged spans: ${back.matched} of ${back.checked} identical to what was sent`);
      if (floorBefore) {
        // The second floor runs on its own database while this server idles.
        const after = await floorAfter();
        const floor = (floorBefore.spansPerSecond + (after ?? floorBefore).spansPerSecond) / 2;
        const floorCpu = [floorBefore.cpuMsPerKSpans, after?.cpuMsPerKSpans].filter((x): x is number => typeof x === "number");
        const cpuRatio = floorCpu.length && reprise.cpuMsPerKSpans ? reprise.cpuMsPerKSpans / (floorCpu.reduce((a, b) => a + b, 0) / floorCpu.length) : null;
        reprise.note = `ratio to the floor ${(reprise.spansPerSecond / floor).toFixed(2)} (mean floor ${Math.round(floor)})${cpuRatio ? `; CPU per span ${cpuRatio.toFixed(2)}× the floor's` : ""}`;
        findings.push(`${db}: Reprise ${reprise.spansPerSecond} spans/s, ${reprise.note}`);
      }
    }
    if (PARTS.has("big")) {
      // 8 MB requests (7.5 MB decompressed, 128 carriers of ~60 KB) at concurrency 8: the memory ceiling.
      const big = Array.from({ length: 24 }, () => {
        const b = buildRequest("json", carriers(16, 7, 66_000), 1);
        return { body: b.body, spans: 112, sample: undefined as unknown as SentSpan, raw: b.rawBytes };
      });
      rss.reset();
      const r = fixed(await load(otlp, big, { next: 0 }, 8, 300));
      row(db, `Reprise, 8 MB requests (${(big[0].raw / 1e6).toFixed(1)} MB raw), concurrency 8`, r, rss.peak());
    }
    if (PARTS.has("trace10k")) await oneBigTrace(db, server.url, otlp, rss, 10_000);
    if (PARTS.has("trace100k")) await oneBigTrace(db, server.url, otlp, rss, 100_000);
  } finally {
    rss.stop();
    await server.stop();
  }
  try {
    const c = await completionCheck(storage);
    findings.push(`${db}: completion: ${c.ready} traces had their completion and every span stored, ${c.completed} completed, ${c.events} trace.completed events, ${c.duplicates} traces with more than one`);
  } finally {
    await storage.cleanup();
  }
}

/**
 * One trace of `total` spans (an agent loop), its completion racing the last spans; then its console page, and
 * for a trace past 10,000 spans what scrolling, collapsing and searching its tree cost, with the server's peak
 * RSS over the page's reads alone.
 */
async function oneBigTrace(db: string, baseUrl: string, otlp: string, rss: ReturnType<typeof watchRss>, total: number) {
  const trace = bigTrace(total, CARRIERS_PER_REQUEST, 3600);
  const requests: PoolRequest[] = trace.requests.map((p) => ({ body: buildRequest("json", p, 1).body, spans: p.length, sample: undefined as unknown as SentSpan }));
  requests.splice(requests.length - 4, 0, { body: buildRequest("json", trace.completion, 1).body, spans: 0, sample: undefined as unknown as SentSpan });
  rss.reset();
  const r = fixed(await load(otlp, requests, { next: 0 }, CONCURRENCY, 300));
  const acked = performance.now();
  let status = "";
  while (performance.now() - acked < 60_000) {
    const res = await request(`${baseUrl}/api/sdk/traces/${trace.traceId}`, "GET", { authorization: `Bearer ${BENCH_API_KEY}` });
    status = res.status === 200 ? JSON.parse(res.body.toString()).trace.status : `HTTP ${res.status}`;
    if (status !== "pending") break;
    await new Promise((res) => setTimeout(res, 50));
  }
  const completedAfter = performance.now() - acked;
  const label = total.toLocaleString("en-US");
  row(db, `Reprise, one trace of ${label} spans`, r, rss.peak(), `status ${status} ${completedAfter.toFixed(0)} ms after the last acknowledgment`);
  rss.reset();
  const page = await consolePage(baseUrl, trace.traceId, total);
  findings.push(`${db}: the ${label}-span trace: ${status}, ${completedAfter.toFixed(0)} ms after the last acknowledgment; ${page}; the server's peak RSS while the page was read: ${Math.round(rss.peak() / 1e6)} MB`);
}

/** Opens the trace's console page in Chromium; how long until the span tree shows, and how many rows it rendered. */
async function consolePage(baseUrl: string, traceId: string, total: number): Promise<string> {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: await findChromium() });
  try {
    const page = await browser.newPage();
    // When the first row of the span tree enters the page, by the page's own clock (from the start of the
    // navigation), read after the next frame so the row has been painted. Playwright's wait polls at up to
    // 500 ms intervals and runs its role queries on the page's thread, which the figure must not include.
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        if (!document.querySelector('ul[aria-label="Span tree"] > li')) return;
        seen.disconnect();
        requestAnimationFrame(() => ((window as unknown as { treeShownAt: number }).treeShownAt = performance.now()));
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel("Email").fill("bench@example.com");
    await page.getByLabel("Password").fill("bench bench bench");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Traces" }).waitFor();
    const times: number[] = [];
    const waits: number[] = [];
    const fetches: string[] = [];
    let rows = 0;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await page.goto(`${baseUrl}/traces/${traceId}`);
      await page.getByRole("list", { name: "Span tree" }).getByRole("listitem").first().waitFor({ timeout: 30_000 });
      waits.push(performance.now() - t);
      await page.waitForFunction(() => (window as unknown as { treeShownAt?: number }).treeShownAt !== undefined);
      times.push(await page.evaluate(() => (window as unknown as { treeShownAt: number }).treeShownAt));
      rows = await page.getByRole("list", { name: "Span tree" }).getByRole("listitem").count();
      // Where the time went: the trace's tRPC request, from the browser's resource timing (the wait for the
      // server's first byte, then the whole response), against the page's own load.
      fetches.push(await page.evaluate(() => {
        const get = performance.getEntriesByType("resource").find((e) => e.name.includes("traces.get")) as PerformanceResourceTiming | undefined;
        if (!get) return "no traces.get request seen";
        return `traces.get sent at ${get.startTime.toFixed(0)} ms, first byte after ${(get.responseStart - get.requestStart).toFixed(0)} ms, ${(get.encodedBodySize / 1e6).toFixed(1)} MB done at ${get.responseEnd.toFixed(0)} ms`;
      }));
    }
    const shown = `its console page showed the span tree in ${times.map((t) => t.toFixed(0)).join(", ")} ms (three loads, from the start of the navigation to the first row painted; Playwright's wait saw it after ${waits.map((t) => t.toFixed(0)).join(", ")} ms), ${rows} rows rendered of ${total.toLocaleString("en-US")} (${fetches.join("; ")})`;
    return total > 10_000 ? `${shown}; ${await treeActions(page)}` : shown;
  } catch (e) {
    return `its console page could not be measured: ${(e as Error).message.split("\n")[0]}`;
  } finally {
    await browser.close();
  }
}

/**
 * On an open trace page: scrolls the tree five times past the rows read (each a window read from the server),
 * collapses the root, and searches a span name and jumps to it; how long each took until the page showed it.
 */
async function treeActions(page: import("@playwright/test").Page): Promise<string> {
  const tree = page.getByRole("list", { name: "Span tree" });
  const rows = () => tree.getByRole("listitem").count();
  const out: string[] = [];
  let t = performance.now();
  for (let i = 0; i < 5; i++) {
    const before = await rows();
    await page.getByRole("button", { name: /^Show \d+ more of/ }).click();
    await page.waitForFunction((n) => document.querySelectorAll('ul[aria-label="Span tree"] > li').length > n, before, { timeout: 30_000 });
  }
  out.push(`five more pages of rows in ${(performance.now() - t).toFixed(0)} ms (${await rows()} rows)`);
  t = performance.now();
  await tree.getByRole("button", { name: /^Collapse / }).first().click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Span tree"] > li').length === 1, undefined, { timeout: 30_000 });
  out.push(`the root collapsed in ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  await page.getByRole("searchbox", { name: "Search spans" }).fill("tool-49000");
  await page.getByRole("searchbox", { name: "Search spans" }).press("Enter");
  await page.getByRole("list", { name: "Spans found" }).getByRole("button").first().click();
  await tree.getByText("tool-49000", { exact: true }).first().waitFor({ timeout: 30_000 });
  out.push(`a search for tool-49000 found it and showed it in the tree in ${(performance.now() - t).toFixed(0)} ms`);
  return out.join(", ");
}

// ---------------------------------------------------------------------------------------------------

const count = Math.ceil((MAX_RATE * (SECONDS + WARMUP + 2)) / (CARRIERS_PER_REQUEST * (SPANS_PER_TRACE / (SPANS_PER_TRACE + 1))));
const builtAt = performance.now();
const pool = PARTS.has("floor") || PARTS.has("reprise") || PARTS.has("redaction") || process.argv.includes("--bodies-only") ? cachedPool(count) : [];
console.log(`${pool.length} request bodies ready in ${((performance.now() - builtAt) / 1000).toFixed(0)} s`);
if (process.argv.includes("--bodies-only")) process.exit(0);
const startedAt = new Date();
const load1 = os.loadavg()[0];
for (const db of DBS) {
  // Floor, Reprise, floor again: the ratio divides by the mean of the two floors, so a change of the
  // shared machine's load during the run (or the first run's checkpoints spilling into the second) does
  // not fall on one side only.
  const before = PARTS.has("floor") ? await benchmarkFloor(db, pool, "floor, before Reprise") : undefined;
  if (["reprise", "big", "trace10k", "trace100k"].some((p) => PARTS.has(p))) {
    await benchmarkReprise(db, pool, before, async () => (PARTS.has("floor") ? benchmarkFloor(db, pool, "floor, after Reprise") : undefined));
  }
  if (PARTS.has("redaction")) await benchmarkRedaction(db, pool, withoutRules.get(db));
}
agent.destroy();

console.log(`\n## Ingestion, ${startedAt.toISOString()} → ${new Date().toISOString()}; load average ${load1.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end; ${os.cpus().length} cores`);
console.log(`${SECONDS} s after a ${WARMUP} s warm-up, concurrency ${CONCURRENCY}, gzipped OTLP/JSON requests of ${CARRIERS_PER_REQUEST} carriers of ~4 KB, traces of ${SPANS_PER_TRACE} spans + completion; spans/s counts span carriers of fully accepted requests\n`);
console.log("| database | server | requests | spans | spans/s | p50 ms | p99 ms | errors | peak RSS MB | CPU ms / 1k spans | of which PostgreSQL | |");
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
for (const r of report) console.log(`| ${r.db} | ${r.what} | ${r.requests} | ${r.spans} | ${r.spansPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.peakRssMb} | ${r.cpuMsPerKSpans ?? ""} | ${r.dbCpuMsPerKSpans ?? ""} | ${r.note} |`);
console.log("");
for (const f of findings) console.log(`- ${f}`);
if (errorSamples.length > 0) console.log(`\nFirst errors:\n${errorSamples.map((e) => `- ${e}`).join("\n")}`);
