// The fault suite (with crash.system.test.ts, which kills the server mid-ingestion): the built server on a
// PostgreSQL database the test creates, while several clients send spans, meets a database that refuses
// connections (`ALLOW_CONNECTIONS false`), has its connections terminated, and holds an exclusive lock on the
// spans table. Every answer is 200 or 503 with Retry-After (never a 500), the console shows its outage notice,
// the server recovers by itself, and every acknowledged span is there afterwards. Then the server is started
// against a database that is unreachable and one that refuses connections: it waits, answers 503 meanwhile,
// and serves once the database is up (docs/api.md "Common rules", docs/scaling.md). Every scenario is bounded
// in time and stays on loopback.
import net from "node:net";
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spanPayload } from "../../server/ingest/testing/payloads.ts";
import { createEmptyPostgresDatabase } from "../harness.ts";
import { buildApp, freePort, waitHealthy, spawnServer } from "./server-process.ts";

const pgUrl = process.env.TEST_DATABASE_URL;
const API_KEY = `rp_faults_${randomUUID().replace(/-/g, "")}`;
const CLIENTS = 4;
/** How long each fault is held. */
const FAULT_MS = 3_000;

function start(port: number, databaseUrl: string): ChildProcess {
  return spawnServer(port, { name: "Fault test", apiKey: API_KEY, env: { DATABASE_URL: databaseUrl } });
}

function kill(child: ChildProcess | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    /* gone */
  }
}

interface TAnswer {
  status: number;
  retryAfter: string | null;
  body: string;
}

/** One request that never waits longer than `timeoutMs`; a connection error or timeout is status 0. */
async function request(url: string, init: RequestInit = {}, timeoutMs = 5_000): Promise<TAnswer> {
  try {
    const res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
  } catch (error) {
    return { status: 0, retryAfter: null, body: String(error) };
  }
}

const postSpan = (baseUrl: string, traceId: string, spanId: string, timeoutMs?: number) =>
  request(
    `${baseUrl}/api/sdk/externalSpans`,
    { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body: JSON.stringify(spanPayload({ traceId, spanId })) },
    timeoutMs,
  );

/** Polls `check` every 200 ms until it holds, for at most `timeoutMs`. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** An answer a client may get during an outage: 200, or 503 with a Retry-After it can wait. */
const isOutageAnswer = (a: TAnswer) => a.status === 200 || (a.status === 503 && /^[1-9]\d*$/.test(a.retryAfter ?? ""));

/**
 * A fresh PostgreSQL database for a describe block (the app built first), with an administrator's connection to
 * refuse, terminate or lock it; let in again and dropped after the block.
 */
function useFaultDatabase() {
  const state = { database: undefined as Awaited<ReturnType<typeof createEmptyPostgresDatabase>> | undefined, name: "", admin: undefined as pg.Client | undefined };
  beforeAll(async () => {
    await buildApp();
    state.database = await createEmptyPostgresDatabase();
    state.name = new URL(state.database.url).pathname.slice(1);
    state.admin = new pg.Client({ connectionString: pgUrl });
    await state.admin.connect();
  });
  afterAll(async () => {
    await state.admin?.query(`ALTER DATABASE ${state.name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await state.admin?.end();
    await state.database?.drop();
  });
  return state as { database: Awaited<ReturnType<typeof createEmptyPostgresDatabase>>; name: string; admin: pg.Client };
}

describe.runIf(pgUrl)("database faults under load, on PostgreSQL", () => {
  const fault = useFaultDatabase();
  let server: ChildProcess | undefined;
  let baseUrl = "";

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = start(port, fault.database.url);
    await waitHealthy(port, 60_000);
  });
  afterAll(() => kill(server));

  const terminate = () => fault.admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [fault.name]);

  it("answers 200 or 503 with Retry-After through refusal, terminated connections and an exclusive lock, and loses nothing acknowledged", async () => {
    const acknowledged: string[] = [];
    const wrong: string[] = [];
    const counts = new Map<number, number>();
    let stopped = false;
    const load = Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        const traceId = randomUUID();
        while (!stopped) {
          const spanId = randomUUID();
          // Longer than any fault: a request held by the lock waits rather than fails.
          const answer = await postSpan(baseUrl, traceId, spanId, 15_000);
          counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
          if (answer.status === 200) acknowledged.push(spanId);
          else if (!isOutageAnswer(answer)) wrong.push(`${answer.status} ${answer.body.slice(0, 200)}`);
          if (answer.status === 503) await new Promise((r) => setTimeout(r, 100));
        }
      }),
    );
    const acknowledgedSince = async (count: number, what: string) => {
      const from = acknowledged.length;
      await until(what, 20_000, async () => acknowledged.length >= from + count);
    };

    try {
      await acknowledgedSince(30, "spans before the faults");

      // 1. The database refuses connections (SQLSTATE 55000), its live connections cut.
      await fault.admin.query(`ALTER DATABASE ${fault.name} ALLOW_CONNECTIONS false`);
      try {
        await terminate();
        await new Promise((r) => setTimeout(r, FAULT_MS / 2));
        const surfaces = {
          health: await request(`${baseUrl}/api/health`),
          rest: await request(`${baseUrl}/api/sdk/datasets`, { headers: { authorization: `Bearer ${API_KEY}` } }),
          mcp: await request(`${baseUrl}/mcp`, {
            method: "POST",
            headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_api_key_context", arguments: {} } }),
          }),
          // A session cookie, so the session lookup needs the database.
          trpc: await request(`${baseUrl}/api/trpc/session.me`, { headers: { cookie: `reprise_session=${randomUUID()}` } }),
        };
        for (const [surface, answer] of Object.entries(surfaces)) {
          expect(answer.status, `${surface}: ${answer.body.slice(0, 200)}`).toBe(503);
          expect(answer.retryAfter, surface).toMatch(/^[1-9]\d*$/);
        }
        // The console (a session cookie, so the layout's session lookup needs the database): its notice, not a 500 page.
        const page = await request(`${baseUrl}/traces`, { headers: { cookie: `reprise_session=${randomUUID()}` } });
        expect(page.status, page.body.slice(0, 200)).toBeLessThan(500);
        expect(page.body).toContain("Database unreachable, retrying");
        await new Promise((r) => setTimeout(r, FAULT_MS / 2));
      } finally {
        await fault.admin.query(`ALTER DATABASE ${fault.name} ALLOW_CONNECTIONS true`);
      }
      await acknowledgedSince(20, "spans after the refusal");

      // 2. Every connection terminated (57P01) mid-load.
      await terminate();
      await acknowledgedSince(20, "spans after the terminated connections");

      // 3. An exclusive lock on the spans table: writes wait behind it, then go through.
      const locker = new pg.Client({ connectionString: fault.database.url });
      await locker.connect();
      try {
        await locker.query("BEGIN");
        await locker.query("LOCK TABLE spans IN ACCESS EXCLUSIVE MODE");
        await new Promise((r) => setTimeout(r, FAULT_MS));
        await locker.query("COMMIT");
      } finally {
        await locker.end();
      }
      await acknowledgedSince(20, "spans after the lock");
    } finally {
      stopped = true;
      await load;
    }
    console.info(`answers during the faults: ${JSON.stringify(Object.fromEntries(counts))}; acknowledged ${acknowledged.length}`);
    expect(wrong).toEqual([]);
    expect(counts.get(503) ?? 0).toBeGreaterThan(0);

    const check = new pg.Client({ connectionString: fault.database.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ id: string }>("SELECT id::text FROM spans WHERE id::text = ANY($1::text[])", [acknowledged]);
      const found = new Set(rows.map((r) => r.id));
      const lost = acknowledged.filter((id) => !found.has(id));
      expect(lost, `${lost.length} of ${acknowledged.length} acknowledged spans lost`).toEqual([]);
    } finally {
      await check.end();
    }
  });
});

/** A loopback TCP proxy to PostgreSQL that can be switched on later: "the database comes up". */
function proxyTo(target: URL, port: number): Promise<net.Server> {
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

// The start-up scenarios: the server entry answers while it waits for its database (health 503 "starting",
// the APIs 503 with Retry-After; docs/operations.md, "Starting").
const WAITING_START = true;

describe.runIf(pgUrl)("starting against a database that is not there", () => {
  const fault = useFaultDatabase();

  /** While the database is away: the process stays up, health answers 503, the API 503 with Retry-After. */
  async function expectWaiting(child: ChildProcess, port: number): Promise<void> {
    const baseUrl = `http://127.0.0.1:${port}`;
    await until("health answering 503 while the database is away", 30_000, async () => (await request(`${baseUrl}/api/health`, {}, 2_000)).status === 503);
    expect(child.exitCode, "the server exited instead of waiting").toBeNull();
    // Loading Next.js holds the server's thread for seconds on a busy machine: a generous bound.
    const api = await request(`${baseUrl}/api/sdk/datasets`, { headers: { authorization: `Bearer ${API_KEY}` } }, 30_000);
    expect(api.status, api.body.slice(0, 200)).toBe(503);
    expect(api.retryAfter).toMatch(/^[1-9]\d*$/);
  }

  /** Once the database is back: healthy, and a span is acknowledged. */
  async function expectServing(port: number): Promise<void> {
    await waitHealthy(port, 45_000);
    const answer = await postSpan(`http://127.0.0.1:${port}`, randomUUID(), randomUUID());
    expect(answer.status, answer.body.slice(0, 200)).toBe(200);
  }

  it.runIf(WAITING_START)("waits for an unreachable database, answering 503 meanwhile, and serves once it is reachable", async () => {
    const proxyPort = await freePort();
    const target = new URL(fault.database.url);
    const viaProxy = new URL(fault.database.url);
    viaProxy.port = String(proxyPort);
    const port = await freePort();
    const child = start(port, viaProxy.toString());
    let proxy: net.Server | undefined;
    try {
      await expectWaiting(child, port);
      proxy = await proxyTo(target, proxyPort);
      await expectServing(port);
    } finally {
      kill(child);
      await new Promise((r) => (proxy ? proxy.close(r) : r(undefined)));
    }
  });

  it.runIf(WAITING_START)("waits for a database that refuses connections, answering 503 meanwhile, and serves once it accepts them", async () => {
    await fault.admin.query(`ALTER DATABASE ${fault.name} ALLOW_CONNECTIONS false`);
    const port = await freePort();
    const child = start(port, fault.database.url);
    try {
      try {
        await expectWaiting(child, port);
      } finally {
        await fault.admin.query(`ALTER DATABASE ${fault.name} ALLOW_CONNECTIONS true`);
      }
      await expectServing(port);
    } finally {
      kill(child);
    }
  });
});
