// A crash mid-ingestion loses nothing acknowledged: the built server's whole process tree is killed with
// SIGKILL while several clients send traces (spans, then the trace's completion), started again at once on
// the same database, and every span it answered 200 for is read back, and every trace whose completion it
// answered 200 for completed exactly once (one `trace.completed` event, docs/api/ingestion.md "Completion").
// On the embedded database this also proves the data-directory lock lets the new process in right after the
// old one was killed (docs/scaling.md, "PGlite on a laptop"). Part of the fault suite with
// faults.system.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completionPayload, spanPayload } from "../../server/ingest/testing/payloads.ts";
import { openDatabase } from "../../server/db/client.ts";
import { sql } from "../../server/db/sql.ts";
import { createEmptyPostgresDatabase } from "../harness.ts";
import { buildApp, freePort, stopProcessGroup, waitHealthy, spawnServer } from "./server-process.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const API_KEY = `rp_crash_${randomUUID().replace(/-/g, "")}`;
const CLIENTS = 6;
/** Spans per trace; each trace's completion expects them all. */
const SPANS_PER_TRACE = 3;

function start(port: number, env: Record<string, string>): ChildProcess {
  return spawnServer(port, { name: "Crash test", apiKey: API_KEY, env });
}

interface TAcknowledged {
  spans: Array<{ traceId: string; spanId: string }>;
  /** Traces whose completion was answered 200 (sent only after all their spans were). */
  completions: string[];
  /** Every trace a completion was sent for, answered or not. */
  sentCompletions: string[];
}

/**
 * From CLIENTS loops until `stopped()`: a trace's SPANS_PER_TRACE spans, then its completion; what was
 * answered 200 goes to `acknowledged`. A client whose request fails starts a new trace.
 */
async function ingestUntil(baseUrl: string, stopped: () => boolean, acknowledged: TAcknowledged): Promise<void> {
  const post = async (path: string, body: unknown) => {
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false; // the server is gone: the request was not acknowledged
    }
  };
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!stopped()) {
        const traceId = randomUUID();
        let all = true;
        for (let i = 0; i < SPANS_PER_TRACE && all && !stopped(); i++) {
          const spanId = randomUUID();
          if (await post("/api/sdk/externalSpans", spanPayload({ traceId, spanId }))) acknowledged.spans.push({ traceId, spanId });
          else all = false;
        }
        if (!all || stopped()) continue;
        acknowledged.sentCompletions.push(traceId);
        if (await post("/api/sdk/externalTraces", completionPayload({ traceId, expectedSpanCount: SPANS_PER_TRACE }))) acknowledged.completions.push(traceId);
      }
    }),
  );
}

/** Each sent completion's trace: its status and how many `trace.completed` events it has. */
async function completionsIn(env: Record<string, string>, traceIds: string[]): Promise<Map<string, { status: string; events: number }>> {
  const db = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL, maxConnections: 1 } : { dataDir: env.REPRISE_DATA_DIR! });
  try {
    const rows = await db.sql.query<{ source_trace_id: string; status: string; events: number }>(sql`
      SELECT t.source_trace_id, t.status,
             (SELECT count(*)::int FROM trace_events e
               WHERE e.organization_id = t.organization_id AND e.trace_id = t.id AND e.kind = 'trace.completed') AS events
      FROM traces t WHERE t.source_trace_id = ANY(${traceIds}::text[])`);
    return new Map(rows.map((r) => [r.source_trace_id, { status: r.status, events: Number(r.events) }]));
  } finally {
    await db.close();
  }
}

/** Resolves once the process has exited (SIGTERM sent by stopProcessGroup). */
const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

async function crashAndRestart(env: Record<string, string>) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const first = start(port, env);
  let second: ChildProcess | undefined;
  try {
    await waitHealthy(port);
    let dead = false;
    const acknowledged: TAcknowledged = { spans: [], completions: [], sentCompletions: [] };
    const sending = ingestUntil(baseUrl, () => dead, acknowledged);
    // Kill mid-stream, once a good number of spans and completions went through.
    const deadline = Date.now() + 30_000;
    while ((acknowledged.spans.length < 150 || acknowledged.completions.length < 20) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    process.kill(-first.pid!, "SIGKILL");
    // Requests in flight fail from here on; stop the clients once their socket errors are in.
    await new Promise((r) => setTimeout(r, 300));
    dead = true;
    await sending;
    expect(acknowledged.spans.length).toBeGreaterThan(20);
    expect(acknowledged.completions.length).toBeGreaterThan(5);

    second = start(port, env);
    await waitHealthy(port, 60_000);
    const missing: string[] = [];
    for (let i = 0; i < acknowledged.spans.length; i += 16) {
      await Promise.all(
        acknowledged.spans.slice(i, i + 16).map(async ({ spanId }) => {
          const res = await fetch(`${baseUrl}/api/sdk/externalSpans/${spanId}`, { headers: { authorization: `Bearer ${API_KEY}` } });
          await res.arrayBuffer();
          if (res.status !== 200) missing.push(`${spanId}: ${res.status}`);
        }),
      );
    }
    expect(missing, `${missing.length} of ${acknowledged.spans.length} acknowledged spans lost`).toEqual([]);

    // Every acknowledged completion completed its trace once; no trace, acknowledged or cut off, completed twice.
    stopProcessGroup(second);
    await exited(second);
    const traces = await completionsIn(env, acknowledged.sentCompletions);
    const wrong = acknowledged.completions.filter((id) => traces.get(id)?.status !== "completed" || traces.get(id)?.events !== 1);
    expect(wrong.map((id) => `${id}: ${JSON.stringify(traces.get(id))}`), `of ${acknowledged.completions.length} acknowledged completions`).toEqual([]);
    expect([...traces.values()].filter((t) => t.events > 1)).toEqual([]);
  } finally {
    for (const child of [first, second]) {
      if (child?.pid) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }
    }
    stopProcessGroup(second);
  }
}

describe("SIGKILL mid-ingestion", () => {
  beforeAll(buildApp);

  it("the embedded database restarts at once and keeps every acknowledged span", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-crash-"));
    await crashAndRestart({ DATABASE_URL: "", REPRISE_DATA_DIR: dataDir });
  });

  describe.runIf(pgUrl)("on PostgreSQL", () => {
    let database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>;
    beforeAll(async () => {
      database = await createEmptyPostgresDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("keeps every acknowledged span", async () => {
      await crashAndRestart({ DATABASE_URL: database.url });
    });
  });
});
