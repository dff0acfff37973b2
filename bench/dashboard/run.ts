// The dashboard benchmark: each chart's p95 on a generated database, beside a baseline read in the same run.
//   npx tsx bench/dashboard/run.ts [--db postgres|pglite] [--traces N] [--spans-per-trace 16] [--llm-spans 4]
//     [--days 30] [--reads 20] [--ranges 24h,7d,30d] [--mode before,after|after] [--rollup-charts shipped|all]
// PostgreSQL at TEST_DATABASE_URL (else postgresql://postgres@127.0.0.1:5432/postgres), a fresh database dropped
// afterwards (BENCH_KEEP_DB=1 keeps it); PGlite in a temporary directory. The targets (docs/scaling.md,
// "Dashboard"): p95 under 1 s per chart at 1,000,000 traces and 16,000,000 spans on PostgreSQL, and at 100,000
// traces on PGlite. The baseline is the cheapest read of the same range (a count of its traces), so a figure
// measured on a loaded machine can be read as a ratio.
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { sql } from "../../server/db/sql.ts";
import { getDashboardChart, ROLLUP_CHARTS } from "../../server/insight/dashboard/dashboard.service.ts";
import { refreshOrganizationRollups } from "../../server/insight/dashboard/rollups/rollups.service.ts";
import { DASHBOARD_CHARTS } from "../../server/insight/dashboard/dashboard.schemas.ts";
import { pgliteStorage, postgresStorage, type Storage } from "../ingest/server-process.ts";
import { generate } from "./generate.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DB = arg("db", "postgres");
const TRACES = Number(arg("traces", DB === "pglite" ? "100000" : "1000000"));
const SPANS = Number(arg("spans-per-trace", "16"));
const LLM = Number(arg("llm-spans", "4"));
const DAYS = Number(arg("days", "30"));
const READS = Number(arg("reads", "20"));
const RANGES = arg("ranges", "24h,7d,30d").split(",");
const HOURS: Record<string, number> = { "1h": 1, "24h": 24, "7d": 168, "30d": 720 };
/** "before,after" (default) or "after": whether to time the raw statements first. */
const MODE = arg("mode", "before,after");
/** Which charts read rollups "after": the ones the dashboard turns on (ROLLUP_CHARTS), or every chart that has a rollup read. */
const ROLLUP_CHOICE = arg("rollup-charts", "shipped");
if (ROLLUP_CHOICE === "all") for (const chart of ["volume", "functions", "usage", "graders", "verdicts"] as const) ROLLUP_CHARTS.add(chart);
/** The range ends this long after the generated data's last whole hour, as a range chosen "now" does (edges cut hours). */
const OFFSET_MS = 17 * 60_000;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;

async function time(read: () => Promise<unknown>): Promise<number[]> {
  await read(); // the first read warms the cache; the p95 is over the next READS
  const out: number[] = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    await read();
    out.push(performance.now() - start);
  }
  return out;
}

async function main() {
  const storage: Storage = DB === "pglite" ? await pgliteStorage() : await postgresStorage(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  let db: Database | undefined;
  try {
    db = await openDatabase(storage.env.DATABASE_URL ? { url: storage.env.DATABASE_URL } : { dataDir: storage.env.REPRISE_DATA_DIR });
    await migrate(db.sql);
    const [{ id: org }] = (await db.sql.query<{ id: string }>(sql`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'Bench') RETURNING id::text`)) as [{ id: string }];
    const end = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const started = performance.now();
    await generate(db.sql, { organizationId: org, traces: TRACES, spansPerTrace: SPANS, llmSpansPerTrace: LLM, days: DAYS, chunk: DB === "pglite" ? 5000 : 20000, end }, (done) =>
      process.stderr.write(`\rgenerated ${done.toLocaleString()} / ${TRACES.toLocaleString()} traces`));
    process.stderr.write(`\n${storage.label}: ${TRACES.toLocaleString()} traces, ${(TRACES * SPANS).toLocaleString()} spans over ${DAYS} days in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    // Before: the exact statements over the raw rows (no rollups yet). After: one run of the rollup job, then the
    // same reads, which take the range's settled whole hours from the rollups.
    const measure = async (label: string) => {
      console.log(`\n${storage.label}, ${TRACES.toLocaleString()} traces / ${(TRACES * SPANS).toLocaleString()} spans over ${DAYS} days; ${label}; p95 of ${READS} reads, ms`);
      console.log(["range", "traces in range", "baseline (count)", ...DASHBOARD_CHARTS].join(" | "));
      for (const range of RANGES) {
        const input = { from: new Date(end.getTime() - HOURS[range]! * 3_600_000 + OFFSET_MS), to: new Date(end.getTime() + OFFSET_MS) };
        const [{ n }] = (await db!.sql.query<{ n: number }>(sql`SELECT count(*)::int AS n FROM traces WHERE organization_id = ${org}::uuid AND NOT dropped
          AND started_at >= ${input.from.toISOString()}::timestamptz AND started_at < ${input.to.toISOString()}::timestamptz`)) as [{ n: number }];
        const baseline = p95(await time(() => db!.sql.query(sql`SELECT count(*) FROM traces WHERE organization_id = ${org}::uuid AND NOT dropped
          AND started_at >= ${input.from.toISOString()}::timestamptz AND started_at < ${input.to.toISOString()}::timestamptz`)));
        const cells: string[] = [];
        for (const chart of DASHBOARD_CHARTS) cells.push(p95(await time(() => getDashboardChart(db!, org, input, chart))).toFixed(0));
        console.log([range, n.toLocaleString(), baseline.toFixed(0), ...cells].join(" | "));
      }
    };
    if (MODE !== "after") await measure("before: raw statements");
    const rolling = performance.now();
    const rolled = await refreshOrganizationRollups(db, org);
    console.log(`\nrollup job, first run: ${rolled.hours} hours in ${((performance.now() - rolling) / 1000).toFixed(1)} s`);
    const again = performance.now();
    await refreshOrganizationRollups(db, org);
    console.log(`rollup job, a run with nothing new: ${((performance.now() - again) / 1000).toFixed(2)} s`);
    await measure(`after: rollups for settled hours, raw for the rest (reading rollups: ${[...ROLLUP_CHARTS].join(", ")})`);
  } finally {
    await db?.close();
    await storage.cleanup();
  }
}

await main();
