// The embedded database's WebAssembly memory (which never shrinks) through the ingestion benchmark's load, in-process:
// the OTLP handler called directly (no HTTP or Next.js) on PGlite in a fresh temporary directory, as the server runs it
// (its own thread, the server's settings). Sustained 4 KB-carrier requests from 8 concurrent callers, then rounds of
// 8 concurrent 8 MB requests, printing the memory's size after each phase.
//   npx tsx bench/ingest/wasm-memory.ts [--seconds 60] [--rounds 3] [--settings work_mem=1MB,…] [--big-first]
// --settings: PostgreSQL settings over the server's, to compare them; --big-first: the 8 MB requests on the fresh
// database first, then the sustained load, then the 8 MB requests again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { openDatabase } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { setDb } from "../../server/db.ts";
import { createOrganization } from "../../server/auth/auth.service.ts";
import { postOtlpTraces } from "../../server/ingest/otlp/otlp.http.ts";
import { buildRequest, carrierStream, carriers } from "./requests.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const SECONDS = Number(arg("seconds", "60"));
const ROUNDS = Number(arg("rounds", "3"));
const SETTINGS = arg("settings", "").split(",").filter(Boolean);
const CONCURRENCY = 8;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-wasm-"));
const db = await openDatabase({ dataDir: dir, settings: SETTINGS });
/**
 * The memory's size, and how much of it is resident: the anonymous read-write mapping of exactly its size (V8
 * reserves gigabytes of address space for it and makes only that part accessible), whose resident pages are what
 * PostgreSQL touched; then glibc's main heap and the process's RSS.
 */
const mb = async () => {
  const bytes = await db.memoryBytes!();
  let wasmRss = 0;
  let heapRss = 0;
  for (const entry of fs.readFileSync("/proc/self/smaps", "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const size = Number(/\nSize:\s+(\d+) kB/.exec(entry)?.[1] ?? 0) * 1024;
    const rss = Number(/\nRss:\s+(\d+) kB/.exec(entry)?.[1] ?? 0) * 1024;
    if (/^\S+ rw-p 00000000 00:00 0\s*$/m.test(entry.split("\n")[0]!) && size === bytes) wasmRss += rss;
    if (entry.split("\n")[0]!.endsWith("[heap]")) heapRss += rss;
  }
  const m = (n: number) => `${Math.round(n / 2 ** 20)} MB`;
  return `${m(bytes)}, ${m(wasmRss)} of it resident; glibc heap ${m(heapRss)}; process RSS ${m(process.memoryUsage().rss)}`;
};
try {
  await migrate(db.sql);
  setDb(db);
  const { apiKey } = await createOrganization(db, { name: "bench", email: `b${Date.now()}@example.com`, password: "correct horse battery" });
  const post = async (body: Uint8Array<ArrayBuffer>, gzip: boolean) => {
    const res = await postOtlpTraces(
      new Request("http://bench/api/sdk/otel/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) },
        body,
      }),
      { params: Promise.resolve({}) },
    );
    await res.arrayBuffer();
    return res.status;
  };
  const big = async (label: string) => {
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies = Array.from({ length: CONCURRENCY }, () => new Uint8Array(zlib.gunzipSync(buildRequest("json", carriers(16, 7, 66_000), 1).body)));
      statuses.push(...(await Promise.all(bodies.map((b) => post(b, false)))));
    }
    console.log(`after ${ROUNDS} rounds of ${CONCURRENCY} × 8 MB (${label}): ${await mb()}; answers ${[...new Set(statuses)].join(",")}`);
  };
  console.log(`settings ${SETTINGS.join(" ") || "(the server's)"}; migrated: ${await mb()}`);
  if (process.argv.includes("--big-first")) await big("fresh");
  const stream = carrierStream(16, 128, 3600);
  const until = Date.now() + SECONDS * 1000;
  let requests = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < until) {
      const status = await post(new Uint8Array(buildRequest("json", stream.next().payloads, 1).body), true);
      if (status !== 200) throw new Error(`answer ${status}`);
      requests++;
    }
  }));
  console.log(`after ${SECONDS} s sustained (${requests} requests of 128 × 4 KB): ${await mb()}`);
  await big("after the sustained load");
} finally {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
