// A crash mid-ingestion loses nothing acknowledged: the built server is killed with SIGKILL while clients
// are sending spans, started again at once on the same database, and every span it answered 200 for is
// read back. On the embedded database this also proves the data-directory lock lets the new process in
// right after the old one was killed (docs/scaling.md, "PGlite on a laptop").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { serverCommand } from "../../scripts/start.mjs";
import { spanPayload } from "../../server/ingest/testing/payloads.ts";
import { createEmptyPostgresDatabase } from "../harness.ts";
import { buildApp, freePort, stopProcessGroup, waitHealthy } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const pgUrl = process.env.TEST_DATABASE_URL;
const API_KEY = `rp_crash_${randomUUID().replace(/-/g, "")}`;
const CLIENTS = 6;

function start(port: number, env: Record<string, string>): ChildProcess {
  const [node, args] = serverCommand(env) as [string, string[]];
  return spawn(node, args, {
    cwd: root,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      REPRISE_LOG_LEVEL: "error",
      REPRISE_INIT_ORG_NAME: "Crash test",
      REPRISE_INIT_USER_EMAIL: "crash@example.com",
      REPRISE_INIT_USER_PASSWORD: "crash test password",
      REPRISE_INIT_API_KEY: API_KEY,
      ...env,
    },
  });
}

/** Sends spans from CLIENTS loops until `stopped()`, adding the ids of the spans answered 200 to `acknowledged`. */
async function ingestUntil(baseUrl: string, stopped: () => boolean, acknowledged: Array<{ traceId: string; spanId: string }>): Promise<void> {
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const traceId = randomUUID();
      while (!stopped()) {
        const spanId = randomUUID();
        try {
          const res = await fetch(`${baseUrl}/api/sdk/externalSpans`, {
            method: "POST",
            headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
            body: JSON.stringify(spanPayload({ traceId, spanId })),
          });
          if (res.status === 200) acknowledged.push({ traceId, spanId });
          else await res.arrayBuffer();
        } catch {
          /* the server is gone: the request was not acknowledged */
        }
      }
    }),
  );
}

async function crashAndRestart(env: Record<string, string>) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const first = start(port, env);
  let second: ChildProcess | undefined;
  try {
    await waitHealthy(port);
    let dead = false;
    const acknowledged: Array<{ traceId: string; spanId: string }> = [];
    const sending = ingestUntil(baseUrl, () => dead, acknowledged);
    // Kill mid-stream, once a good number of spans went through.
    const deadline = Date.now() + 30_000;
    while (acknowledged.length < 150 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    process.kill(-first.pid!, "SIGKILL");
    // Requests in flight fail from here on; stop the clients once their socket errors are in.
    await new Promise((r) => setTimeout(r, 300));
    dead = true;
    await sending;
    expect(acknowledged.length).toBeGreaterThan(20);

    second = start(port, env);
    await waitHealthy(port, 60_000);
    const missing: string[] = [];
    for (let i = 0; i < acknowledged.length; i += 16) {
      await Promise.all(
        acknowledged.slice(i, i + 16).map(async ({ spanId }) => {
          const res = await fetch(`${baseUrl}/api/sdk/externalSpans/${spanId}`, { headers: { authorization: `Bearer ${API_KEY}` } });
          await res.arrayBuffer();
          if (res.status !== 200) missing.push(`${spanId}: ${res.status}`);
        }),
      );
    }
    expect(missing, `${missing.length} of ${acknowledged.length} acknowledged spans lost`).toEqual([]);
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
