// Scores beyond pass/fail (docs/graders.md, "Scores and categories"; docs/api/labels.md, "POST /api/sdk/graderLabels"):
// grader config, the judge asked for and strictly parsed on a score or category, rule scores, people's and agents'
// scores checked against the grader, derived pass/fail, validation errors, the history and its undo, the audit log.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createSpan, createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createApiKeyForUser } from "../auth/auth.service.ts";
import { postGrader } from "../graders/graders.http.ts";
import { ZSaveGraderResponse } from "../graders/graders.schemas.ts";
import { gradeTrace } from "../grading/grading.service.ts";
import { createLimiter } from "../grading/limiter.ts";
import type { JudgeOptions } from "../grading/judge.ts";
import { runTool } from "../mcp/server.ts";
import type { ToolDefinition } from "../mcp/tool.ts";
import { saveGraderLabelsTool } from "../mcp/tools/save-grader-labels.ts";
import { getGraderLabelsTool } from "../mcp/tools/get-grader-labels.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { getGraderLabels, postGraderLabels } from "./labels.http.ts";
import { ZGraderLabelsResponse, ZGraderLabelWritesResponse } from "./labels.schemas.ts";

const FN = "scored-bot";
let judgeAnswer: unknown = {};
let judgeBodies: string[] = [];
let server: http.Server;

describe("grader scores and categories", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let judge: JudgeOptions;
  const graders: Record<string, string> = {};

  const saveGrader = async (body: unknown, apiKey = org.apiKey) => call(postGrader, { apiKey, path: "/api/sdk/graders", body });
  const make = async (body: object) => {
    const res = await saveGrader({ traceFunctionKey: FN, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZSaveGraderResponse.parse(res.body).grader.id;
  };
  const write = (labels: unknown[], apiKey = org.apiKey) => call(postGraderLabels, { apiKey, path: "/api/sdk/graderLabels", body: { labels } });
  const read = async (traceId: string) => ZGraderLabelsResponse.parse((await call(getGraderLabels, { apiKey: org.apiKey, path: `/api/sdk/graderLabels?traceIds=${traceId}` })).body).labels;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        judgeBodies.push(raw);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(judgeAnswer) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    judge = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, timeoutMs: 5_000, maxRetries: 0, maxRetryDelayMs: 10, limiter: createLimiter(2) };
    org = await createTestOrg(db(), "Scores");
    other = await createTestOrg(db(), "Elsewhere");
    graders.judgeScore = await make({ name: "helpfulness", kind: "llm_judge", config: { model: "m", instructions: "Rate helpfulness.", output: { type: "score", min: 1, max: 5, passThreshold: 3 } } });
    graders.judgeCategory = await make({ name: "tone", kind: "llm_judge", config: { model: "m", instructions: "Classify the tone.", output: { type: "category", categories: ["polite", "neutral", "rude"], passingCategories: ["polite", "neutral"] } } });
    graders.judgeFree = await make({ name: "quality", kind: "llm_judge", config: { model: "m", instructions: "Rate.", output: { type: "score", min: 0, max: 10 } } });
    graders.ruleScore = await make({ name: "latency", kind: "rule", config: { check: { op: "maxDurationMs", value: 1000 }, output: { type: "score", min: 0, max: 60000 } } });
    graders.passFail = await make({ name: "no errors", kind: "rule", config: { check: { op: "noErrors" } } });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const tracedRun = async (durationMs = 400) => {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, status: "completed" });
    const startedAt = new Date(Date.now() - 10_000);
    await createSpan(db(), org.organizationId, t.id, { name: "root", startedAt, endedAt: new Date(startedAt.getTime() + durationMs), input: "hi", output: "hello there" });
    return t.id;
  };

  describe("grader config", () => {
    it("declares a score or categories, refuses what cannot be read, and a change is a new version", async () => {
      const bad = async (config: object, kind = "llm_judge") => {
        const res = await saveGrader({ traceFunctionKey: FN, name: `bad-${Math.random()}`, kind, config: { model: "m", instructions: "x", ...config } });
        expect(res.status).toBe(400);
        return (res.body as { issues: { path: string }[] }).issues.map((i) => i.path);
      };
      expect(await bad({ output: { type: "score", min: 5, max: 1 } })).toContain("config.output.max");
      expect(await bad({ output: { type: "score", min: 0, max: 1, passThreshold: 2 } })).toContain("config.output.passThreshold");
      expect(await bad({ output: { type: "category", categories: ["a", "A"] } })).toContain("config.output.categories");
      expect(await bad({ output: { type: "category", categories: ["a", "b"], passingCategories: ["c"] } })).toContain("config.output.passingCategories.0");
      const rule = (config: object) => ({ model: undefined, instructions: undefined, ...config });
      expect(await bad(rule({ check: { op: "noErrors" }, output: { type: "score", min: 0, max: 1 } }), "rule")).toContain("config.output.type");
      expect(await bad(rule({ check: { op: "maxDurationMs", value: 5 }, output: { type: "category", categories: ["a", "b"] } }), "rule")).toContain("config.output.type");
      expect(await bad(rule({ check: { op: "maxDurationMs", value: 5 }, output: { type: "score", min: 0, max: 9, passThreshold: 3 } }), "rule")).toContain("config.output.passThreshold");

      const id = await make({ name: "versioned", kind: "llm_judge", config: { model: "m", instructions: "x" } });
      const edited = await saveGrader({ id, traceFunctionKey: FN, name: "versioned", kind: "llm_judge", config: { model: "m", instructions: "x", output: { type: "score", min: 0, max: 1 } } });
      expect(ZSaveGraderResponse.parse(edited.body)).toMatchObject({ changed: true, previousVersion: 1, grader: { version: 2, config: { output: { type: "score", min: 0, max: 1 } } } });
    });
  });

  describe("grading", () => {
    it("asks the judge for the score, derives pass/fail from the threshold, and errors on an out-of-range or missing score", async () => {
      const traceId = await tracedRun();
      judgeBodies = [];
      judgeAnswer = { score: 4, reason: "useful", confidence: "high" };
      const graded = await gradeTrace(db(), org.organizationId, traceId, [graders.judgeScore!], { judge });
      expect(graded).toMatchObject({ status: "graded", verdicts: [{ verdict: { label: true, score: 4, category: null, reason: "useful" } }] });
      const system = (JSON.parse(judgeBodies[0]!) as { messages: { content: string }[] }).messages[0]!.content;
      expect(system).toContain('"score": a number from 1 to 5');
      expect(system).not.toContain('"label"'); // the threshold decides pass/fail
      expect((await read(traceId))[0]).toMatchObject({ graderId: graders.judgeScore, label: true, score: 4, category: null, source: "live_grader" });

      judgeAnswer = { score: 2 };
      expect(await gradeTrace(db(), org.organizationId, traceId, [graders.judgeScore!], { judge })).toMatchObject({ verdicts: [{ verdict: { label: false, score: 2 } }] });
      judgeAnswer = { score: 7, label: true };
      expect(await gradeTrace(db(), org.organizationId, traceId, [graders.judgeScore!], { judge })).toMatchObject({
        verdicts: [{ verdict: { label: null, failureDiagnostic: "The judge's score 7 lies outside the grader's range [1, 5]." } }],
      });
      judgeAnswer = { score: "4", label: true };
      const missing = await gradeTrace(db(), org.organizationId, traceId, [graders.judgeScore!], { judge });
      expect(missing).toMatchObject({ verdicts: [{ verdict: { label: null } }] });
      expect((await read(traceId))[0]).toMatchObject({ label: null, score: null, failureDiagnostic: expect.stringContaining('no numeric "score"') });
    });

    it("reads a category case-insensitively into the grader's spelling; an unknown one errors, never passes", async () => {
      const traceId = await tracedRun();
      judgeAnswer = { category: "RUDE", reason: "snappy" };
      expect(await gradeTrace(db(), org.organizationId, traceId, [graders.judgeCategory!], { judge })).toMatchObject({ verdicts: [{ verdict: { label: false, category: "rude" } }] });
      judgeAnswer = { category: "sarcastic", label: true };
      const unknown = await gradeTrace(db(), org.organizationId, traceId, [graders.judgeCategory!], { judge });
      expect(unknown).toMatchObject({ verdicts: [{ verdict: { label: null, failureDiagnostic: expect.stringContaining("not one of the grader's categories") } }] });
    });

    it("without a threshold the judge still gives pass/fail beside the score", async () => {
      const traceId = await tracedRun();
      judgeBodies = [];
      judgeAnswer = { score: 6.5, label: false };
      expect(await gradeTrace(db(), org.organizationId, traceId, [graders.judgeFree!], { judge })).toMatchObject({ verdicts: [{ verdict: { label: false, score: 6.5 } }] });
      expect(judgeBodies[0]).toContain('\\"label\\": true if the trace passes');
    });

    it("a rule grader records what its check measured as the score; its check decides pass/fail", async () => {
      const traceId = await tracedRun(1500);
      expect(await gradeTrace(db(), org.organizationId, traceId, [graders.ruleScore!, graders.passFail!])).toMatchObject({
        verdicts: expect.arrayContaining([
          { graderId: graders.ruleScore, graderName: "latency", graderVersion: 1, verdict: expect.objectContaining({ label: false, score: 1500 }) },
          { graderId: graders.passFail, graderName: "no errors", graderVersion: 1, verdict: expect.objectContaining({ label: true }) },
        ]),
      });
      const labels = await read(traceId);
      expect(labels.find((l) => l.graderId === graders.passFail)).toMatchObject({ score: null, category: null });
    });
  });

  describe("people's scores", () => {
    it("records a score, derives pass/fail, keeps the replaced label in the history, audits it, and undoes it", async () => {
      const traceId = await tracedRun();
      judgeAnswer = { score: 2 };
      await gradeTrace(db(), org.organizationId, traceId, [graders.judgeScore!], { judge });
      const res = await write([{ traceId, graderId: graders.judgeScore, score: 4.5, reason: "actually helpful" }]);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(ZGraderLabelWritesResponse.parse(res.body).labels).toEqual([{ traceId, graderId: graders.judgeScore, label: true, score: 4.5, category: null, action: "set" }]);
      expect((await read(traceId))[0]).toMatchObject({ label: true, score: 4.5, source: "human", labelReason: "actually helpful" });

      const caller = await signedInCaller(db(), org.email);
      const history = (await caller.labels.graderHistory({ traceId })).entries;
      expect(history.map((e) => [e.state, e.source, e.score, e.label])).toEqual([["current", "human", 4.5, true], ["replaced", "live_grader", 2, false]]);
      expect(history[0]).toMatchObject({ decidedBy: org.email, decidedVia: "rest" });
      const audit = await db().prisma.auditEvent.findMany({ where: { organizationId: org.organizationId, kind: "grader_label.set" } });
      expect(audit.at(-1)).toMatchObject({ actorVia: "rest", actorUserId: org.userId, before: { label: false, score: 2, source: "live_grader" }, after: { label: true, score: 4.5, source: "human" } });

      // The console records a second opinion, then undoes it: the first person's score is current again.
      expect(await caller.labels.saveGraderLabel({ traceId, graderId: graders.judgeScore!, score: 1 })).toMatchObject({ label: false, score: 1 });
      await caller.labels.undoGraderLabel({ traceId, graderId: graders.judgeScore! });
      expect((await read(traceId))[0]).toMatchObject({ label: true, score: 4.5, source: "human" });
      const after = (await caller.labels.graderHistory({ traceId })).entries;
      expect(after.map((e) => [e.state, e.score])).toEqual([["current", 4.5], ["replaced", 1], ["replaced", 2]]);
      // A grading's label cannot be undone.
      await caller.labels.undoGraderLabel({ traceId, graderId: graders.judgeScore! });
      expect((await read(traceId))[0]).toMatchObject({ source: "live_grader", score: 2 });
      await expect(caller.labels.undoGraderLabel({ traceId, graderId: graders.judgeScore! })).rejects.toMatchObject({ code: "CONFLICT" });
    });

    it("records a category, and pass/fail alone on a pass/fail grader", async () => {
      const traceId = await tracedRun();
      const res = await write([
        { traceId, graderId: graders.judgeCategory, category: "Neutral" },
        { traceId, graderId: graders.passFail, label: false },
        { traceId, graderId: graders.judgeFree, score: 3 },
      ]);
      expect(ZGraderLabelWritesResponse.parse(res.body).labels.map((l) => [l.label, l.score, l.category])).toEqual([[true, null, "neutral"], [false, null, null], [null, 3, null]]);
    });

    it("refuses what the grader cannot hold with a 400 and writes nothing", async () => {
      const traceId = await tracedRun();
      const refused = async (entry: object, path: string) => {
        const res = await write([{ traceId, graderId: graders.passFail, label: true }, { traceId, ...entry }]);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect((res.body as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(path);
      };
      await refused({ graderId: graders.judgeScore, score: 9 }, "labels.1.score");
      await refused({ graderId: graders.judgeScore, score: 2, label: true }, "labels.1.label");
      await refused({ graderId: graders.judgeCategory, category: "sarcastic" }, "labels.1.category");
      await refused({ graderId: graders.passFail, score: 1 }, "labels.1.graderId"); // the same pair twice
      await refused({ graderId: graders.judgeCategory, score: 1 }, "labels.1.score");
      await refused({ graderId: graders.judgeScore }, "labels.1.label");
      await refused({ graderId: graders.judgeScore, score: "4" }, "labels.1.score");
      expect(await read(traceId)).toEqual([]);
    });

    it("another organization's trace or grader is a 404; a key that only reads is a 403", async () => {
      const traceId = await tracedRun();
      const theirs = await createTrace(db(), other.organizationId, { traceFunctionKey: FN });
      expect((await write([{ traceId: theirs.id, graderId: graders.passFail, label: true }])).status).toBe(404);
      expect((await write([{ traceId, graderId: graders.passFail, label: true }], other.apiKey)).status).toBe(404);
      const readKey = (await createApiKeyForUser(db(), { organizationId: org.organizationId, userId: org.userId }, { name: "reader", scope: "read" })).apiKey;
      expect((await write([{ traceId, graderId: graders.passFail, label: true }], readKey)).status).toBe(403);
      expect(await read(traceId)).toEqual([]);
    });

    it("agents record and read scores through MCP", async () => {
      const traceId = await tracedRun();
      const ctx = { db: db(), auth: { organizationId: org.organizationId, userId: org.userId, apiKeyId: randomUUID(), role: "owner" as const, scope: "admin" as const }, apiKey: org.apiKey, baseUrl: "http://localhost", requestId: "t" };
      const run = (tool: ToolDefinition<any>, args: unknown) => runTool(tool as ToolDefinition, z.object(tool.input).parse(args), ctx);
      const saved = await run(saveGraderLabelsTool, { labels: [{ traceId, graderId: graders.judgeScore, score: 3 }] });
      expect(JSON.stringify(saved)).toContain("score 3, PASS");
      const refused = await run(saveGraderLabelsTool, { labels: [{ traceId, graderId: graders.judgeScore, score: 30 }] });
      expect(JSON.stringify(refused)).toContain("within the grader's range [1, 5]");
      const labels = await run(getGraderLabelsTool, { traceIds: [traceId] });
      expect(JSON.stringify(labels)).toContain("PASS, score 3 [human");
      const audit = await db().prisma.auditEvent.findFirst({ where: { organizationId: org.organizationId, actorVia: "mcp", kind: "grader_label.set" } });
      expect(audit).toMatchObject({ actorTool: "save_grader_labels" });
    });
  });
});
