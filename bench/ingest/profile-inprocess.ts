// Where does a request's time go? Calls the OTLP handler in-process (no HTTP, no Next.js) and times it.
// `npx tsx bench/ingest/profile-inprocess.ts [postgres-url]` (PGlite in memory without a URL).
import { openDatabase } from "../../server/db/client.ts";
import { migrate } from "../../server/db/migrator.ts";
import { setDb } from "../../server/db.ts";
import { createOrganization } from "../../server/auth/auth.service.ts";
import { postOtlpTraces } from "../../server/ingest/otlp/otlp.http.ts";
import { buildRequest, carriers, type Encoding } from "./requests.ts";

const url = process.argv[2];
const db = await openDatabase(url ? { url } : { dataDir: "memory://" });
await migrate(db.sql);
setDb(db);
const { apiKey } = await createOrganization(db, { name: "bench", email: `b${Date.now()}@example.com`, password: "correct horse battery" });
for (const encoding of ["json", "protobuf"] as Encoding[]) {
  const requests = Array.from({ length: 30 }, () => buildRequest(encoding, carriers(16, 7, 3600)));
  const t0 = performance.now();
  for (const r of requests) {
    const res = await postOtlpTraces(
      new Request("http://bench/api/sdk/otel/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": encoding === "json" ? "application/json" : "application/x-protobuf", "content-encoding": "gzip" },
        body: new Uint8Array(r.body),
      }),
      { params: Promise.resolve({}) },
    );
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  const ms = performance.now() - t0;
  console.log(`${encoding}: ${requests.length} requests, ${((requests.length * 128) / (ms / 1000)).toFixed(0)} spans/s serial, ${(ms / requests.length).toFixed(1)} ms/request`);
}
await db.close();
