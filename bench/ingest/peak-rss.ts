// The embedded database's memory ceiling, in one command (after `npm run build`):
//
//   npx tsx bench/ingest/peak-rss.ts            # both encodings
//   npx tsx bench/ingest/peak-rss.ts gzip       # one
//   BENCH_DB=postgres npx tsx bench/ingest/peak-rss.ts   # on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, else local)
//
// For each body encoding (plain JSON, gzip), a fresh server on a fresh PGlite data directory (or PostgreSQL database) receives
// ROUNDS rounds of 8 concurrent OTLP/JSON requests of 8 MB (7.5 MB decompressed, 128 carriers of ~60 KB),
// and the peak RSS of its process tree (Next.js and PGlite's thread are one process) is printed with the
// statuses it answered. The bound is in bench/README.md.
import path from "node:path";
import zlib from "node:zlib";
import { buildRequest, carriers } from "./requests.ts";
import { BENCH_API_KEY, pgliteStorage, postgresStorage, startServer, watchRss } from "./server-process.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const CONCURRENCY = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3371);
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

type TEncoding = "plain" | "gzip";

async function measure(encoding: TEncoding): Promise<void> {
  const bodies = Array.from({ length: CONCURRENCY * ROUNDS }, () => {
    const gzipped = buildRequest("json", carriers(16, 7, 66_000), 1).body;
    return encoding === "gzip" ? gzipped : zlib.gunzipSync(gzipped);
  });
  const storage = process.env.BENCH_DB === "postgres" ? await postgresStorage(PG_URL) : await pgliteStorage();
  const server = await startServer(root, PORT, storage);
  const rss = watchRss(server.pid);
  const statuses = new Map<number, number>();
  try {
    rss.reset();
    const idle = rss.peak();
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all(
        bodies.slice(round * CONCURRENCY, (round + 1) * CONCURRENCY).map(async (body) => {
          const res = await fetch(`${server.url}/api/sdk/otel/v1/traces`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${BENCH_API_KEY}`,
              "content-type": "application/json",
              ...(encoding === "gzip" ? { "content-encoding": "gzip" } : {}),
            },
            body: new Uint8Array(body),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }),
      );
    }
    const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
    console.log(
      `${storage.label}, ${encoding}: ${CONCURRENCY} concurrent × ${ROUNDS} rounds of ${mb(bodies[0]!.length)} bodies: peak RSS ${mb(rss.peak())} (idle ${mb(idle)}), answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  } finally {
    rss.stop();
    await server.stop();
    await storage.cleanup();
  }
}

const asked = process.argv.slice(2) as TEncoding[];
for (const encoding of asked.length > 0 ? asked : (["plain", "gzip"] as const)) await measure(encoding);
