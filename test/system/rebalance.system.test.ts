// Growing a Citus cluster loses nothing (docs/operations.md, "Citus"): the built server on a database of the local
// cluster takes traces from several clients at once while a third worker joins and the shards are rebalanced
// (citus_rebalance_start, shards moved with logical replication while writes go on). Afterwards every span the
// server acknowledged is stored, every trace completed, each with exactly one completion event, and the new worker
// holds shards. Runs on the Citus run of the system tests (scripts/test.mjs).
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { startCitusNode } from "../../scripts/citus-cluster.mjs";
import { completionPayload, spanPayload } from "../../server/ingest/testing/payloads.ts";
import { createEmptyPostgresDatabase, onCitus } from "../harness.ts";
import { buildApp, freePort, spawnServer, stopProcessGroup, waitHealthy } from "./server-process.ts";

const API_KEY = `rp_rebalance_${"0123456789abcdef".repeat(3)}`;
const CLIENTS = 4;
const SPANS = 3;

describe.runIf(onCitus)("a Citus cluster growing while it ingests", () => {
  let database: { url: string; drop: () => Promise<void> };
  let server: ChildProcess;
  let port: number;
  let extra: { url: string; stop: () => void } | undefined;
  let db: pg.Client;

  beforeAll(async () => {
    await buildApp();
    database = await createEmptyPostgresDatabase();
    port = await freePort();
    server = spawnServer(port, { name: "Rebalance", apiKey: API_KEY, env: { DATABASE_URL: database.url } });
    await waitHealthy(port);
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  });
  afterAll(async () => {
    stopProcessGroup(server);
    await db?.end();
    await database?.drop();
    extra?.stop();
  });

  /** Posts until acknowledged: a 503 (the database busy) is retried after its Retry-After, as the SDKs do. */
  async function post(route: string, body: unknown): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`http://127.0.0.1:${port}${route}`, {
        method: "POST",
        headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status === 200) return;
      if (res.status !== 503 || attempt > 20) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? 1)));
    }
  }

  it("keeps every acknowledged span and completes every trace once while a worker joins and shards move", async () => {
    const acknowledged = new Map<string, number>();
    let growing = true;
    const client = async () => {
      for (let n = 0; growing || n < 3; n++) {
        const traceId = randomUUID();
        for (let s = 0; s < SPANS; s++) {
          await post("/api/sdk/externalSpans", spanPayload({ traceId, spanId: randomUUID(), input: [`client span ${s}`] }));
          acknowledged.set(traceId, (acknowledged.get(traceId) ?? 0) + 1);
        }
        await post("/api/sdk/externalTraces", completionPayload({ traceId, expectedSpanCount: SPANS }));
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);

    // The cluster grows: a new worker, the test database on it, registered, then the shards rebalanced.
    const name = new URL(database.url).pathname.slice(1);
    extra = startCitusNode(await freePort());
    const node = new pg.Client({ connectionString: extra!.url });
    await node.connect();
    await node.query(`CREATE DATABASE ${name}`);
    await node.end();
    const onNode = new pg.Client({ connectionString: extra!.url.replace(/\/postgres$/, `/${name}`) });
    await onNode.connect();
    await onNode.query("CREATE EXTENSION citus");
    await onNode.end();
    const newPort = Number(new URL(extra!.url).port);
    await db.query("SELECT citus_add_node('127.0.0.1', $1)", [newPort]);
    await db.query("SELECT citus_rebalance_start()");
    await db.query("SELECT citus_rebalance_wait()");
    growing = false;
    await Promise.all(clients);

    const { rows: moved } = await db.query("SELECT count(*)::int AS n FROM citus_shards WHERE nodeport = $1", [newPort]);
    expect(moved[0].n).toBeGreaterThan(0);

    const ids = [...acknowledged.keys()];
    expect(ids.length).toBeGreaterThanOrEqual(CLIENTS * 3);
    const { rows: spans } = await db.query("SELECT trace_id::text AS id, count(*)::int AS n FROM spans GROUP BY trace_id");
    expect(Object.fromEntries(spans.map((r) => [r.id, r.n]))).toEqual(Object.fromEntries(acknowledged));
    // Completion runs in the request that brings the last span or the expected count; its event is written with it.
    const { rows: traces } = await db.query("SELECT id::text, status FROM traces");
    expect(traces.filter((t) => t.status !== "completed")).toEqual([]);
    expect(traces).toHaveLength(ids.length);
    const { rows: events } = await db.query("SELECT trace_id::text AS id, count(*)::int AS n FROM trace_events WHERE kind = 'trace.completed' GROUP BY trace_id");
    expect(events).toHaveLength(ids.length);
    expect(events.filter((e) => e.n !== 1)).toEqual([]);
  });
});
