// Where one OTLP request's time goes, phase by phase, in-process (no HTTP, no Next.js): gunzip, decode,
// parse + validation, the write plan, and each SQL statement of the write.
//   npx tsx bench/ingest/phases.ts [postgres-url]      (PGlite in memory without a URL)
// N=<requests> sets how many are sent (the first 10 warm up); EXPERIMENT="<sql>" runs after migrating,
// e.g. to try an index or a storage setting before writing a migration for it.
import zlib from "node:zlib";
import { openDatabase } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { createOrganization } from "../../server/auth/auth.service.ts";
import { findCarriers } from "../../server/ingest/otlp/carriers.ts";
import { carriersToItems } from "../../server/ingest/otlp/otlp.http.ts";
import { decodeOtlpTraces } from "../../server/ingest/otlp-wire/decode-otlp.ts";
import { preparePlan } from "../../server/ingest/write/prepare-plan.ts";
import { writeBatch } from "../../server/ingest/write/write-batch.ts";
import { buildRequest, carriers, type Encoding } from "./requests.ts";

const url = process.argv[2];
const db = await openDatabase(url ? { url } : { dataDir: "memory://" });
await migrate(db.sql);
if (process.env.EXPERIMENT) await db.sql.exec(process.env.EXPERIMENT);
const { organizationId: org } = await createOrganization(db, { name: "bench", email: `b${Date.now()}@example.com`, password: "correct horse battery" });
// Statements are timed by wrapping the transaction's client.
const timings: Record<string, number> = {};
const add = (k: string, ms: number) => (timings[k] = (timings[k] ?? 0) + ms);
const origTx = db.sql.transaction.bind(db.sql);
(db.sql as any).transaction = (fn: any) =>
  origTx((tx: any) =>
    fn({
      ...tx,
      query: async (st: any) => {
        const t = performance.now();
        const r = await tx.query(st);
        const key = st.text.trim().split(/\s+/).slice(0, 6).join(" ").slice(0, 40);
        add(`sql ${key}`, performance.now() - t);
        return r;
      },
    }),
  );
for (const encoding of ["json", "protobuf"] as Encoding[]) {
  for (const k of Object.keys(timings)) delete timings[k];
  const requests = Array.from({ length: Number(process.env.N ?? 40) }, () => buildRequest(encoding, carriers(16, 7, 3600)));
  const T0 = performance.now();
  let i = 0;
  for (const r of requests) {
    let t = performance.now();
    const raw = zlib.gunzipSync(r.body);
    add("gunzip", performance.now() - t); t = performance.now();
    const { carriers: cs } = findCarriers(decodeOtlpTraces(encoding, raw));
    add("decode", performance.now() - t); t = performance.now();
    const { items } = carriersToItems(cs);
    add("parse+zod", performance.now() - t); t = performance.now();
    const { plan } = preparePlan(org, items);
    add("plan", performance.now() - t); t = performance.now();
    await writeBatch(db.sql, org, plan);
    add("write total", performance.now() - t);
    if (++i === 10) { for (const k of Object.keys(timings)) delete timings[k]; }
  }
  console.log(`${encoding}: ms per request (mean of ${Number(process.env.N ?? 40) - 10})`);
  for (const [k, v] of Object.entries(timings)) console.log(`  ${k.padEnd(48)} ${(v / (Number(process.env.N ?? 40) - 10)).toFixed(2)}`);
}
await db.close();
