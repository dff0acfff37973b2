/**
 * Benchmarks of @reprise/sdk (see README.md). Run from the repository root:
 *   node --expose-gc --import tsx bench/sdk/run.ts
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Reprise } from "../../sdks/typescript/src/index.js";

const quiet = { warn: () => undefined };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

async function sinkServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Time per call of `fn` in µs, measured over batches; the event loop runs between batches, not inside. */
async function timePerCall(fn: () => unknown, batches: number, batchSize: number): Promise<number[]> {
  const samples: number[] = [];
  for (let b = 0; b < batches; b += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batchSize; i += 1) fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1_000 / batchSize);
    await nextTick(); // let the exporter work outside the measured window
  }
  return samples;
}

async function spanOverhead(): Promise<void> {
  const sink = await sinkServer();
  const client = new Reprise({ apiKey: "rp_bench", serviceUrl: sink.url, disableSimPlan: true, logger: quiet });
  const plain = (prompt: string, n: number) => ({ text: `${prompt}:${n}` });
  const traced = client.withSpan("callModel", { type: "llm" }, plain);
  const batches = 300;
  const size = 200;
  let baseline: number[] = [];
  let withSpan: number[] = [];
  const root = client.withTrace("bench-root", async () => {
    await timePerCall(() => traced("warm up", 1), 50, size); // JIT warm-up
    baseline = await timePerCall(() => plain("what is 2+2?", 4), batches, size);
    withSpan = await timePerCall(() => traced("what is 2+2?", 4), batches, size);
  });
  await root();
  await client.close(30_000);
  await sink.close();
  const overhead = median(withSpan) - median(baseline);
  console.log("withSpan overhead on the application path (small payload, server reachable)");
  console.log(`  baseline call     median ${median(baseline).toFixed(3)} µs`);
  console.log(`  withSpan call     median ${median(withSpan).toFixed(2)} µs, p90 ${percentile(withSpan, 0.9).toFixed(2)} µs`);
  console.log(`  overhead          median ${overhead.toFixed(2)} µs  (target < 20 µs) ${overhead < 20 ? "PASS" : "FAIL"}`);
  process.exitCode = overhead < 20 ? process.exitCode : 1;
}

async function memoryWhileDown(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    console.log("memory: skipped (run node with --expose-gc)");
    return;
  }
  // A port that refuses connections: every export fails after its retries.
  const dead = await sinkServer();
  const url = dead.url;
  await dead.close();
  const client = new Reprise({ apiKey: "rp_bench", serviceUrl: url, disableSimPlan: true, logger: quiet });
  const step = client.withSpan("step", { type: "function" }, (text: string) => text.length);
  const handle = client.withTrace("bench-down", (text: string) => step(text));
  const payload = "x".repeat(200);
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  const start = heap();
  const rows: string[] = [];
  let peakAfterFill = 0;
  const total = 200_000;
  for (let i = 1; i <= total; i += 1) {
    handle(payload);
    if (i % 2_000 === 0) await nextTick();
    if (i % 40_000 === 0) {
      const used = heap();
      if (i >= 40_000) peakAfterFill = Math.max(peakAfterFill, used);
      rows.push(`  after ${String(i).padStart(7)} traces: heap ${used.toFixed(1)} MB, queue ${client["pipeline"].transport.queueLength}, dropped ${client["pipeline"].transport.droppedCount}`);
    }
  }
  console.log("memory while the server is down (3 carriers per trace, 200-byte input)");
  console.log(`  start: heap ${start.toFixed(1)} MB`);
  for (const row of rows) console.log(row);
  const first = Number(rows[0]?.match(/heap ([\d.]+)/)?.[1] ?? 0);
  const growth = peakAfterFill - first;
  console.log(`  growth after the queue filled: ${growth.toFixed(1)} MB (bounded by the 8,192-carrier queue) ${growth < 20 ? "PASS" : "FAIL"}`);
  if (growth >= 20) process.exitCode = 1;
  await client.close(1_000);
}

await spanOverhead();
await memoryWhileDown();
