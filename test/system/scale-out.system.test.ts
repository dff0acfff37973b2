// Scale-out (docs/scaling.md): two instances of the built server on one PostgreSQL database. The spans
// and the completion of each trace go to different instances at once; every trace completes once, its
// live grader runs once, and the grading jobs that one instance held when it was killed with SIGKILL are
// finished by the other.
import http from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM script without types
import { serverCommand } from "../../scripts/start.mjs";
import { completionPayload, spanPayload } from "../../server/ingest/testing/payloads.ts";
import { createEmptyPostgresDatabase, onCitus } from "../harness.ts";
import { buildApp, freePort, waitHealthy } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
// On the Citus run of the system tests (scripts/test.mjs), the database is one on the local cluster.
const pgUrl = onCitus ? process.env.TEST_CITUS_URL : process.env.TEST_DATABASE_URL;
const API_KEY = `rp_scale_${"0123456789abcdef".repeat(3)}`;
const KEY = "scale-out-agent";
const TRACES = 12;
const SPANS = 6;

if (!pgUrl) console.log("scale-out system test skipped: it needs PostgreSQL (set TEST_DATABASE_URL=postgresql://…)");

/**
 * An OpenAI-compatible judge. Each instance calls it under its own path (/a/v1, /b/v1), so it knows who
 * asks. It holds every call until `release(name)`: from then on it answers that instance's calls, held
 * ones included. The calls of the other instance are never answered (that instance is then killed).
 */
function fakeJudge() {
  const answered: string[] = [];
  const held: Array<{ instance: string; traceId: string; answer: () => void }> = [];
  let released: string | undefined;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const traceId = /trace-marker-([0-9a-f-]{36})/.exec(body)?.[1] ?? "unknown";
      const instance = req.url?.split("/")[1] ?? "";
      const answer = () => {
        answered.push(traceId);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { role: "assistant", content: JSON.stringify({ label: true, reason: "fine" }) } }] }));
      };
      if (released === instance) answer();
      else held.push({ instance, traceId, answer });
    });
  });
  return {
    server,
    answered,
    held,
    release(instance: string) {
      released = instance;
      for (const call of held.filter((c) => c.instance === instance)) call.answer();
    },
  };
}

describe.runIf(pgUrl)("two instances on one PostgreSQL database", () => {
  const judge = fakeJudge();
  const children: ChildProcess[] = [];
  let database: { url: string; drop: () => Promise<void> };
  let ports: number[] = [];

  function startInstance(port: number, name: string, judgePort: number): ChildProcess {
    const [node, args] = serverCommand({ DATABASE_URL: database.url }) as [string, string[]];
    const child = spawn(node, args, {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PORT: String(port),
        NODE_ENV: "production",
        REPRISE_LOG_LEVEL: "error",
        REPRISE_INIT_ORG_NAME: "Scale",
        REPRISE_INIT_USER_EMAIL: "scale@example.com",
        REPRISE_INIT_USER_PASSWORD: "scale scale scale",
        REPRISE_INIT_API_KEY: API_KEY,
        OPENAI_BASE_URL: `http://127.0.0.1:${judgePort}/${name}/v1`,
        OPENAI_API_KEY: "test",
        // A killed instance's grading job comes back after 15 s (checked every 2 s) instead of 10 minutes. Not less:
        // the judge holds every call, so each job stays active only until it expires, and the test must see all of
        // them active at once before the first expires, which took over 5 s on a loaded machine.
        REPRISE_GRADING_JOB_EXPIRE_SECONDS: "15",
        REPRISE_JOB_MAINTENANCE_SECONDS: "2",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("exit", (code, signal) => {
      if (code) console.error(`instance ${name} exited with ${code ?? signal}:\n${output}`);
    });
    children.push(child);
    return child;
  }

  const post = async (port: number, route: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, `${route}: ${await res.clone().text()}`).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    await buildApp();
    database = await createEmptyPostgresDatabase();
    await new Promise<void>((resolve) => judge.server.listen(0, "127.0.0.1", resolve));
    const judgePort = (judge.server.address() as { port: number }).port;
    ports = [await freePort(), await freePort()];
    startInstance(ports[0], "a", judgePort);
    startInstance(ports[1], "b", judgePort);
    await Promise.all(ports.map((p) => waitHealthy(p)));
  });

  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    judge.server.closeAllConnections();
    judge.server.close();
    await new Promise((r) => setTimeout(r, 500));
    await database?.drop();
  });

  it("completes each trace once, runs its live grader once, and the survivor finishes the jobs of a killed instance", async () => {
    const [a, b] = ports;
    await post(a, "/api/sdk/graders", { traceFunctionKey: KEY, name: "judge", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: "Is it right?" }, live: true });

    // Each trace: its spans alternate between the instances, its completion goes to the other one than
    // its last span, all at once.
    const traceIds = Array.from({ length: TRACES }, () => randomUUID());
    await Promise.all(
      traceIds.flatMap((traceId) => {
        const root = randomUUID();
        const spans = Array.from({ length: SPANS }, (_, i) =>
          post(i % 2 === 0 ? a : b, "/api/sdk/externalSpans", spanPayload({
            traceId,
            spanId: i === 0 ? root : randomUUID(),
            parentId: i === 0 ? null : root,
            traceFunctionKey: KEY,
            name: `step-${i}`,
            input: [`trace-marker-${traceId}`],
          })),
        );
        const completion = post(SPANS % 2 === 0 ? a : b, "/api/sdk/externalTraces", completionPayload({ traceId, expectedSpanCount: SPANS, traceFunctionKey: KEY }));
        return [...spans, completion];
      }),
    );

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const until = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const value = await probe();
          if (value !== undefined) return value;
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      // Every trace completed, with exactly one completion event each.
      const { rows: traces } = await db.query("SELECT id::text, status FROM traces ORDER BY id");
      expect(traces.map((t) => t.status)).toEqual(traceIds.map(() => "completed"));
      const { rows: events } = await db.query("SELECT trace_id::text, count(*)::int AS n FROM trace_events WHERE kind = 'trace.completed' GROUP BY trace_id");
      expect(events).toHaveLength(TRACES);
      expect(events.every((e) => e.n === 1)).toBe(true);

      // Every grading job is taken by one instance or the other, and their judge calls hang: kill the
      // instance that holds the most of them, and let the judge answer the survivor.
      let seen = "";
      await until("every grading job to be taken", async () => {
        const { rows } = await db.query("SELECT count(*) FILTER (WHERE state = 'active')::int AS active, count(*)::int AS n FROM pgboss.job WHERE name = 'grading'");
        const { rows: states } = await db.query("SELECT state::text, count(*)::int AS n, max(output::text) AS output FROM pgboss.job WHERE name LIKE 'grading%' GROUP BY state");
        seen = `${rows[0].n} grading jobs, ${rows[0].active} active, ${judge.held.length} judge calls held; ${JSON.stringify(states)}`;
        return rows[0].n === TRACES && rows[0].active === TRACES && judge.held.length > 0 ? true : undefined;
      }).catch((error: Error) => {
        throw new Error(`${error.message} (last seen: ${seen})`);
      });
      const heldBy = (name: string) => judge.held.filter((c) => c.instance === name).length;
      const [victim, survivor] = heldBy("a") >= heldBy("b") ? [0, 1] : [1, 0];
      const victimCalls = heldBy(["a", "b"][victim]);
      expect(victimCalls).toBeGreaterThan(0);
      children[victim].kill("SIGKILL");
      judge.release(["a", "b"][survivor]);

      // The survivor grades every trace, those the killed instance held included, each exactly once.
      const labels = await until("a grader label on every trace", async () => {
        const { rows } = await db.query("SELECT trace_id::text AS trace, count(*)::int AS n FROM grader_labels GROUP BY trace_id");
        return rows.length === TRACES ? rows : undefined;
      });
      expect(labels.every((l) => l.n === 1)).toBe(true);
      expect([...judge.answered].sort()).toEqual([...traceIds].sort());
      // No job is left behind, and none failed for good.
      await until("every grading job to be completed", async () => {
        const { rows } = await db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'grading' AND state <> 'completed'");
        return rows[0].n === 0 ? true : undefined;
      });
      const { rows: dead } = await db.query("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'grading-dead'");
      expect(dead[0].n).toBe(0);
      // The survivor still serves.
      expect(await waitHealthy(ports[survivor])).toEqual({ status: "ok" });
    } finally {
      await db.end();
    }
  });
});
