// Evaluation queued at replay/complete (docs/replay.md, "Complete"; docs/api/assertions.md;
// docs/api/labels.md): assertions of the original judged on each replay trace by the job worker (check →
// deterministic, else the LLM judge at a local OpenAI-compatible server), verdicts read back as judge labels, a
// missing target errored never passed, grading of the run's graders on the graders' durable queue, and
// complete answering without waiting for a slow judge.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, onPostgres, useTestDatabase, type TestOrg } from "../../../../test/harness.ts";
import { createSpan, createTrace } from "../../../../test/factories.ts";
import { postAssertions } from "../../../assertions/assertions.http.ts";
import { sql } from "../../../db/sql.ts";
import { resetEnvCache } from "../../../env.ts";
import { postGrader } from "../../../graders/graders.http.ts";
import { startWorkers, type Workers } from "../../../workers.ts";
import { getTraceLabels, postAgentLabels } from "../../../labels/labels.http.ts";
import { ZTraceLabelsResponse } from "../../../labels/labels.schemas.ts";
import { EVALUATION_QUEUE, evaluationJobClient } from "./evaluation.queue.ts";
import { postReplayComplete, postReplayStart } from "../../replay.http.ts";

/** Polls until `check` holds, failing after the deadline (queued work has no completion signal to await). */
const until = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
};

const SLOW = "slow-judge-marker";

describe("replay evaluation", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let worker: Workers;
  const fn = "fn-eval";
  const judged: string[] = [];
  let judgeServer: http.Server;
  /** While set, the judge holds its answer to a request naming SLOW until the promise resolves. */
  let slowGate: Promise<void> | null = null;
  let slowRequests = 0;
  const saved = { base: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY, model: process.env.REPRISE_JUDGE_MODEL };

  beforeAll(async () => {
    org = await createTestOrg(db());
    // A local OpenAI-compatible judge: passes every trace, and records which model it was asked.
    judgeServer = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        if (body.includes(SLOW)) {
          slowRequests++;
          await slowGate;
        } else judged.push(JSON.parse(body).model);
        const content = JSON.stringify({ label: true, reason: "the answer is polite", confidence: "high" });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ choices: [{ message: { role: "assistant", content } }] }));
      });
    });
    await new Promise<void>((resolve) => judgeServer.listen(0, "127.0.0.1", resolve));
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${(judgeServer.address() as AddressInfo).port}/v1`;
    process.env.OPENAI_API_KEY = "test-key";
    process.env.REPRISE_JUDGE_MODEL = "judge-model-x";
    resetEnvCache();
    // The server's worker (startup.ts), here with the judge settings from the environment above.
    worker = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
  });

  afterAll(async () => {
    await worker?.stop();
    await new Promise((resolve) => judgeServer.close(resolve));
    for (const [k, v] of [["OPENAI_BASE_URL", saved.base], ["OPENAI_API_KEY", saved.key], ["REPRISE_JUDGE_MODEL", saved.model]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvCache();
  });

  /** A trace whose root has one "search" child per given output (in start order). */
  async function traceWithSearches(o: { testRunId?: string; originalTraceId?: string; replayAttempt?: number }, outputs: unknown[]) {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: fn, ...o });
    const start = Date.parse("2026-11-21T10:00:00.000Z");
    const root = await createSpan(db(), org.organizationId, t.id, { name: "root", type: "agent", startedAt: new Date(start), output: "hi" });
    for (const [i, output] of outputs.entries()) {
      await createSpan(db(), org.organizationId, t.id, { parentSpanId: root.id, name: "search", startedAt: new Date(start + 10 * (i + 1)), output });
    }
    return t.id;
  }

  async function labelsOf(traceIds: string[]) {
    const read = await call(getTraceLabels, { apiKey: org.apiKey, path: `/api/sdk/traces/labels?traceIds=${traceIds.join(",")}` });
    expect(read.status).toBe(200);
    return ZTraceLabelsResponse.parse(read.body).labels;
  }

  /** The current judge verdicts of a trace, once the queued evaluation wrote `count` of them. */
  async function judgeVerdicts(traceId: string, count: number) {
    const current = async () => (await labelsOf([traceId]))[0]?.assertions.filter((a) => a.labelSource === "judge") ?? [];
    await until(async () => (await current()).length === count);
    return current();
  }

  const evaluationJobsOf = (runId: string) =>
    db().sql.query<{ traceId: string }>(sql`SELECT data->>'traceId' AS "traceId" FROM pgboss.job WHERE name = 'replay-evaluation' AND data->>'testRunId' = ${runId}`);

  it("judges the original's assertions on each replay: a span target passes, fails and errors; the judge reads the rest", async () => {
    const original = await traceWithSearches({}, ["q1", "paris"]);
    const saved = await call(postAssertions, {
      apiKey: org.apiKey,
      body: {
        updates: [{
          traceId: original,
          assertions: [
            { assertion: "the second search finds Paris", targetOnEvaluatedTrace: { kind: "span", name: "search", occurrence: 1 }, check: { op: "contains", value: "paris" } },
            { assertion: "the answer is polite" },
          ],
        }],
      },
    });
    expect(saved.status).toBe(200);
    const [spanAssertion, judgedAssertion] = saved.body.assertions.map((a: { id: string }) => a.id);
    const start = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original], attempts: 3 } });
    const runId = start.body.testRunId;
    const replay = (attempt: number, outputs: unknown[]) => traceWithSearches({ testRunId: runId, originalTraceId: original, replayAttempt: attempt }, outputs);
    const passes = await replay(0, ["q1", "paris, france"]);
    const fails = await replay(1, ["q1", "london"]);
    const errors = await replay(2, ["q1"]);

    expect((await call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } })).status).toBe(200);
    for (const t of [passes, fails, errors]) await judgeVerdicts(t, 2);
    const labels = await labelsOf([passes, fails, errors, original]);
    const verdictOf = (traceId: string, assertionId: string) =>
      labels.find((l) => l.traceId === traceId)?.assertions.find((a) => a.assertionId === assertionId);

    expect(verdictOf(passes, spanAssertion)).toMatchObject({ labelStatus: "labeled", label: true, labelSource: "judge", approved: false });
    expect(verdictOf(fails, spanAssertion)).toMatchObject({ labelStatus: "labeled", label: false, labelSource: "judge" });
    expect(verdictOf(fails, spanAssertion)?.annotation).toContain("london");
    expect(verdictOf(errors, spanAssertion)).toMatchObject({ labelStatus: "errored", label: null, labelSource: "judge" });
    expect(verdictOf(errors, spanAssertion)?.annotation).toMatch(/search/);
    for (const t of [passes, fails, errors]) {
      expect(verdictOf(t, judgedAssertion)).toMatchObject({ labelStatus: "labeled", label: true, labelSource: "judge", confidence: "High" });
    }
    expect(judged).toEqual(["judge-model-x", "judge-model-x", "judge-model-x"]);
    // Verdicts land on the replay traces, never on the original.
    expect(verdictOf(original, spanAssertion)?.labelStatus ?? "unlabeled").toBe("unlabeled");

    // A replay verdict addressed by originalTraceId + testRunId + attempt resolves to the same replay trace.
    const agent = await call(postAgentLabels, {
      apiKey: org.apiKey,
      body: { testRunId: runId, labels: [{ originalTraceId: original, attempt: 1, label: true, annotation: "ok", assertionId: spanAssertion }] },
    });
    expect(agent.body.labels).toEqual([{ key: original, traceId: fails, action: "set" }]);

    // Re-completion queues the evaluation again: the judge verdict supersedes the agent's one.
    expect((await call(postReplayComplete, { apiKey: org.apiKey, body: { experimentId: runId } })).status).toBe(200);
    expect((await judgeVerdicts(fails, 2)).find((a) => a.assertionId === spanAssertion)).toMatchObject({ label: false, labelSource: "judge" });
    expect((await evaluationJobsOf(runId)).map((j) => j.traceId).sort()).toEqual([passes, fails, errors, passes, fails, errors].sort());
  });

  it("judgeAssertions: false writes no verdicts", async () => {
    const original = await traceWithSearches({}, ["a"]);
    await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId: original, assertions: [{ assertion: "x", check: { op: "noErrors" } }] }] } });
    const runId = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original], judgeAssertions: false } })).body.testRunId;
    const replay = await traceWithSearches({ testRunId: runId, originalTraceId: original }, ["a"]);
    await call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } });
    // Jobs are queued in complete's own transaction: none now means none ever.
    expect(await evaluationJobsOf(runId)).toEqual([]);
    expect(await db().prisma.traceLabel.count({ where: { traceId: replay } })).toBe(0);
  });

  it("queues grading and assertion evaluation of each final replay trace, never of a pending one", async () => {
    const original = await traceWithSearches({}, ["a"]);
    const created = await call(postGrader, {
      apiKey: org.apiKey,
      body: { traceFunctionKey: fn, name: "no errors", kind: "rule", config: { target: null, check: { op: "noErrors" } }, live: false },
    });
    expect(created.status).toBe(200);
    const graderId = created.body.grader.id;
    const runId = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original], graderIds: [graderId] } })).body.testRunId;
    const done = await traceWithSearches({ testRunId: runId, originalTraceId: original }, ["a"]);
    const pending = await createTrace(db(), org.organizationId, { traceFunctionKey: fn, testRunId: runId, originalTraceId: original, status: "pending" });
    await call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } });
    const jobs = await db().sql.query<{ traceId: string; graderId: string }>(
      sql`SELECT data->>'traceId' AS "traceId", data->>'graderId' AS "graderId" FROM pgboss.job WHERE name = 'grading' AND data->>'graderId' = ${graderId}`,
    );
    expect(jobs).toEqual([{ traceId: done, graderId }]);
    expect(jobs.map((j) => j.traceId)).not.toContain(pending.id);
    expect(await evaluationJobsOf(runId)).toEqual([{ traceId: done }]);
    // The worker grades it.
    await until(async () => (await db().prisma.graderLabel.count({ where: { traceId: done, graderId } })) === 1);
  });

  it("answers without waiting for a slow judge; the verdict lands once the judge answers", async () => {
    const original = await traceWithSearches({}, ["a"]);
    await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId: original, assertions: [{ assertion: `${SLOW}: the answer is polite` }] }] } });
    const runId = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original] } })).body.testRunId;
    const replay = await traceWithSearches({ testRunId: runId, originalTraceId: original }, ["a"]);
    let release = () => {};
    slowGate = new Promise<void>((resolve) => (release = resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      const waited = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("replay/complete waited for the held judge")), 20_000);
      });
      const completed = await Promise.race([call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } }), waited]);
      expect(completed.status).toBe(200);
      // The worker is now waiting on the judge, which holds its answer: no verdict yet.
      await until(async () => slowRequests === 1);
      expect(await db().prisma.traceLabel.count({ where: { traceId: replay } })).toBe(0);
    } finally {
      clearTimeout(timer);
      release();
    }
    const [verdict] = await judgeVerdicts(replay, 1);
    expect(verdict).toMatchObject({ labelStatus: "labeled", label: true, labelSource: "judge", confidence: "High" });
  });

  it("survives the worker's death: a queued job, or on PGlite one cut off mid-evaluation, is evaluated after a restart", async () => {
    await worker.stop();
    const original = await traceWithSearches({}, ["a"]);
    await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId: original, assertions: [{ assertion: "no errors", check: { op: "noErrors" } }] }] } });
    const runId = (await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: fn, traceIds: [original] } })).body.testRunId;
    const replay = await traceWithSearches({ testRunId: runId, originalTraceId: original }, ["a"]);
    expect((await call(postReplayComplete, { apiKey: org.apiKey, body: { testRunId: runId } })).status).toBe(200);
    if (!onPostgres) {
      // A worker took the job and its process died: the job is active with nobody running it. PGlite's single
      // process retries such jobs at start (on PostgreSQL, where servers share the queue, its expiry does).
      const taken = await (await evaluationJobClient(db())).boss.fetch<{ traceId: string }>(EVALUATION_QUEUE, { batchSize: 20 });
      expect(taken.map((j) => j.data.traceId)).toContain(replay);
    }
    expect(await db().prisma.traceLabel.count({ where: { traceId: replay } })).toBe(0);
    worker = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
    const [verdict] = await judgeVerdicts(replay, 1);
    expect(verdict).toMatchObject({ labelStatus: "labeled", label: true, labelSource: "judge" });
  });
});
