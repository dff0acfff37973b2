// The ingestion benchmark (issue 3, deliverable 7). One command:
//   npx tsx bench/ingest/run.ts [--db pglite|postgres|both] [--seconds 15] [--concurrency 8] [--scenarios small,big] [--app-dir DIR]
// It starts the built app (`npm run build` first) on a fresh database, sends OTLP requests of 128
// carriers of ~4 KB (JSON and protobuf, gzipped) from several concurrent connections, then 8 MB
// requests at concurrency 8, and reports spans/s, request p50/p99 and the server's peak RSS.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildRequest, carriers, type BenchRequest, type Encoding } from "./requests.ts";
import { BENCH_API_KEY, pgliteStorage, postgresStorage, startServer, watchRss, type RunningServer } from "./server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
// --app-dir: a directory holding a copy of .next (with node_modules linked), so builds by others in the
// shared working tree cannot swap the app out from under a run.
const ROOT = path.resolve(arg("app-dir", path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")));
const SECONDS = Number(arg("seconds", "15"));
const CONCURRENCY = Number(arg("concurrency", "8"));
const DBS = arg("db", "both") === "both" ? ["pglite", "postgres"] : [arg("db", "both")];
const SCENARIOS = arg("scenarios", "small,big").split(",");
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

interface Result {
  scenario: string;
  requests: number;
  spans: number;
  seconds: number;
  spansPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const errorSamples: string[] = [];
const noteError = (what: string) => {
  if (errorSamples.length < 5) errorSamples.push(what.slice(0, 300));
  return false;
};

// node:http with keep-alive rather than fetch: the generator shares the two cores with the server and the
// database, and undici's fetch costs several milliseconds of CPU per 150 KB request that the server then lacks.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function send(server: RunningServer, encoding: Encoding, request: BenchRequest): Promise<boolean> {
  const { status, body } = await post(
    `${server.url}/api/sdk/otel/v1/traces`,
    {
      authorization: `Bearer ${BENCH_API_KEY}`,
      "content-type": encoding === "json" ? "application/json" : "application/x-protobuf",
      "content-encoding": "gzip",
    },
    request.body,
  );
  if (status !== 200) return noteError(`${status} ${body.toString().slice(0, 200)}`);
  // A partial success would mean carriers were rejected: count it as an error.
  const full = encoding === "json" ? !JSON.parse(body.toString()).partialSuccess : body.length === 0;
  return full || noteError(`partial success: ${body.toString().slice(0, 200)}`);
}

/** Sends requests from `concurrency` connections until the pool or the time runs out. */
async function load(server: RunningServer, scenario: string, encoding: Encoding, pool: BenchRequest[], concurrency: number, seconds: number, rss: ReturnType<typeof watchRss>): Promise<Result> {
  rss.reset();
  const latencies: number[] = [];
  let next = 0;
  let spans = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (next < pool.length && performance.now() < deadline) {
      const request = pool[next++];
      const t = performance.now();
      const ok = await send(server, encoding, request).catch((e: Error) => noteError(`${e.message} ${String((e as { cause?: unknown }).cause ?? "")}`));
      latencies.push(performance.now() - t);
      if (ok) spans += request.carriers;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    scenario,
    requests: latencies.length,
    spans,
    seconds: Number(elapsed.toFixed(1)),
    spansPerSecond: Math.round(spans / elapsed),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors,
    peakRssMb: Math.round(rss.peak() / 1e6),
  };
}

function pool(encoding: Encoding, count: number, contentBytes: number): BenchRequest[] {
  return Array.from({ length: count }, () => buildRequest(encoding, carriers(16, 7, contentBytes)));
}

async function benchmark(db: string): Promise<Result[]> {
  // Every request carries fresh ids; all bodies are built before the server starts, so neither the
  // generator's CPU nor its event-loop stalls (which break idle keep-alive sockets) touch the figures.
  const count = Math.ceil((8000 * SECONDS) / 128);
  const small = (SCENARIOS.includes("small") ? ["json", "protobuf"] : []) as Encoding[];
  const pools = small.map((encoding) => [encoding, pool(encoding, count + 10, 3600)] as const);
  const big = SCENARIOS.includes("big") ? pool("json", 24, 66_000) : [];
  if (big.some((r) => r.rawBytes > 8_000_000 || r.rawBytes < 7_000_000)) throw new Error(`big request size ${big[0].rawBytes}`);
  const storage = db === "postgres" ? await postgresStorage(PG_URL) : await pgliteStorage();
  const port = 3900 + Math.floor(Math.random() * 90);
  if (db === "pglite") {
    // The first start of an empty PGlite directory runs initdb in-process, which leaves ~800 MB of
    // WebAssembly memory behind; a deployment does that once in its life. Measure a normal (re)start.
    await (await startServer(ROOT, port, storage)).stop();
  }
  const server = await startServer(ROOT, port, storage);
  const rss = watchRss(server.pid);
  const results: Result[] = [];
  try {
    for (const [encoding, requests] of pools) {
      await load(server, "warm-up", encoding, requests.slice(0, 10), CONCURRENCY, 30, rss);
      results.push(await load(server, `${encoding} gzip, 128 × 4 KB`, encoding, requests.slice(10), CONCURRENCY, SECONDS, rss));
    }
    // 8 MB requests (decompressed) at concurrency 8: the memory ceiling.
    if (big.length > 0) results.push(await load(server, `json gzip, 8 MB (${(big[0].rawBytes / 1e6).toFixed(1)} MB raw)`, "json", big, 8, 120, rss));
  } finally {
    rss.stop();
    await server.stop();
    await storage.cleanup();
  }
  console.log(`\n### ${storage.label} (concurrency ${CONCURRENCY}, ${SECONDS} s per scenario)\n`);
  console.log("| scenario | requests | spans | spans/s | p50 ms | p99 ms | errors | server peak RSS MB |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) console.log(`| ${r.scenario} | ${r.requests} | ${r.spans} | ${r.spansPerSecond} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.peakRssMb} |`);
  if (errorSamples.length > 0) console.log(`\nFirst errors:\n${errorSamples.map((e) => `- ${e}`).join("\n")}`);
  errorSamples.length = 0;
  return results;
}

for (const db of DBS) await benchmark(db);
agent.destroy();
