// What the rollups cost ingestion: the traces upsert (the ingestion statement every request runs, stamping
// updated_at) with and without the partial index `traces_late_changes_idx` (migration 0295), alternated in one run
// on one database so both see the same load. Each request upserts 16 new traces, then the same 16 again (a later
// span batch of the same traces), as the write path does.
//   npx tsx bench/dashboard/late-index.ts [--db postgres|pglite] [--rounds 6] [--requests 300]
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { sql } from "../../server/db/sql.ts";
import { newWriteStamp, upsertTracesStatement } from "../../server/ingest/write/write.queries.ts";
import type { TTraceRow } from "../../server/ingest/write/trace-rows.ts";
import { pgliteStorage, postgresStorage } from "../ingest/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DB = arg("db", "postgres");
const ROUNDS = Number(arg("rounds", "6"));
const REQUESTS = Number(arg("requests", "300"));

const row = (id: string, at: string): TTraceRow => ({
  id, source_trace_id: id, name: "bench", trace_function_key: "answer", key_from_completion: false, ingestion_type: null,
  session_id: null, metadata: null, contexts: null, external_trace: null, source: "bench", sdk_version: "1", started_at: null,
  span_started_at: at, ended_at: null, expected_span_count: null, completed: false, dropped: false, test_run_id: null,
  original_trace_id: null, input_source_trace_id: null, replay_attempt: null,
});

const storage = DB === "pglite" ? await pgliteStorage() : await postgresStorage(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL } : { dataDir: storage.env.REPRISE_DATA_DIR });
try {
  await migrate(db.sql);
  const [{ id: org }] = (await db.sql.query<{ id: string }>(sql`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Bench') RETURNING id::text`)) as [{ id: string }];
  const ms: Record<string, number[]> = { with: [], without: [] };
  for (let round = 0; round < ROUNDS * 2; round++) {
    const variant = round % 2 === 0 ? "with" : "without";
    if (variant === "with") await db.sql.exec(`CREATE INDEX IF NOT EXISTS "traces_late_changes_idx" ON "traces" ("organization_id", "updated_at") INCLUDE ("started_at") WHERE "updated_at" - "started_at" > INTERVAL '1 hour'`);
    else await db.sql.exec(`DROP INDEX IF EXISTS "traces_late_changes_idx"`);
    const start = performance.now();
    for (let r = 0; r < REQUESTS; r++) {
      const ids = Array.from({ length: 16 }, () => randomUUID()).sort();
      for (let pass = 0; pass < 2; pass++) {
        const stamp = newWriteStamp();
        const rows = ids.map((id) => row(id, new Date(stamp.at.getTime() - 1000).toISOString()));
        const { statement, prepareAs } = upsertTracesStatement(org, rows, stamp);
        await db.sql.transaction((tx) => tx.query(statement, { prepareAs }));
      }
    }
    ms[variant]!.push((performance.now() - start) / REQUESTS);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${storage.label}: traces upsert, ms per request (16 traces inserted, then updated), ${ROUNDS} alternated rounds of ${REQUESTS}`);
  console.log(`with the partial index: ${ms.with!.map((x) => x.toFixed(2)).join(", ")} (median ${median(ms.with!).toFixed(2)})`);
  console.log(`without:                ${ms.without!.map((x) => x.toFixed(2)).join(", ")} (median ${median(ms.without!).toFixed(2)})`);
  console.log(`ratio with/without: ${(median(ms.with!) / median(ms.without!)).toFixed(3)}`);
} finally {
  await db.close();
  await storage.cleanup();
}
