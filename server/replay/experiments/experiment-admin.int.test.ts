// Experiments and groups (docs/api/replay.md, "Experiments and groups", "Experiment report"): a client-made
// group id and git state at replay start, names and notes, groups, graders attached to an experiment or a
// group and re-run over its replay traces with progress, and the report with per-grader pass rates and
// per-assertion results with evidence.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { postAssertions } from "../../assertions/assertions.http.ts";
import { ZSaveGraderBody } from "../../graders/graders.schemas.ts";
import { createGrader } from "../../graders/graders.service.ts";
import { ZGetRerunResponse, ZStartRerunResponse } from "../../grading/reruns/reruns.schemas.ts";
import { newId } from "../../ids.ts";
import { postAgentLabels } from "../../labels/labels.http.ts";
import { startWorkers, type Workers } from "../../workers.ts";
import { postReplayStart } from "../replay.http.ts";
import {
  getExperimentById,
  getExperimentGroupById,
  getExperimentRerun,
  listExperimentGroups,
  patchExperiment,
  postExperimentGraders,
  postExperimentGroup,
  postExperimentRemoveGraders,
  postExperimentRerun,
  postGroupGraders,
  postGroupRerun,
} from "./experiments.http.ts";

const FN = "exp-admin";

describe("experiments and groups", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let worker: Workers;
  let grader: string;
  let otherFnGrader: string;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Exp A");
    other = await createTestOrg(db(), "Exp B");
    const make = async (body: unknown) => (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse(body))).grader.id;
    grader = await make({ traceFunctionKey: FN, name: "no errors", kind: "rule", live: false, config: { check: { op: "noErrors" } } });
    otherFnGrader = await make({ traceFunctionKey: "elsewhere", name: "x", kind: "rule", live: false, config: { check: { op: "noErrors" } } });
    worker = await startWorkers(db(), { pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const req = (handler: Parameters<typeof call>[0], o: { params?: Record<string, string>; body?: unknown; path?: string; apiKey?: string; method?: string }) =>
    call((r, ctx) => (handler as (r: Request, c: unknown) => Promise<Response>)(r, ctx), { apiKey: org.apiKey, method: o.body === undefined ? "GET" : "POST", ...o });

  /** An original, an experiment over it (with the given extra start fields) and one completed replay trace. */
  async function experiment(start: Record<string, unknown> = {}) {
    const original = await createTrace(db(), org.organizationId, { traceFunctionKey: FN });
    await createSpan(db(), org.organizationId, original.id, { name: "root", output: "old" });
    const res = await call(postReplayStart, { apiKey: org.apiKey, body: { traceFunctionKey: FN, traceIds: [original.id], ...start } });
    expect(res.status).toBe(200);
    const id = res.body.experimentId as string;
    const replay = await createTrace(db(), org.organizationId, { traceFunctionKey: FN, testRunId: id, originalTraceId: original.id, replayAttempt: 0 });
    const span = await createSpan(db(), org.organizationId, replay.id, { name: "root", output: "new" });
    return { id, original: original.id, replay: replay.id, span: span.id };
  }

  async function untilDone(get: () => Promise<{ body: unknown }>) {
    for (let i = 0; i < 300; i++) {
      const { run } = ZGetRerunResponse.parse((await get()).body);
      if (run && (run.status === "completed" || run.status === "errored")) return run;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("re-run did not finish");
  }

  it("replay start takes a client-made group id and the git state; another organization's group id is a 400", async () => {
    const groupId = newId();
    const e = await experiment({ experimentGroupId: groupId, git: { branch: "fix/refunds", commitSha: "a".repeat(40) }, name: "first try" });
    const report = (await req(getExperimentById, { params: { id: e.id } })).body;
    expect(report.experiment).toMatchObject({ id: e.id, name: "first try", experimentGroupId: groupId, gitBranch: "fix/refunds", commitSha: "a".repeat(40) });
    expect(report.group).toEqual({ id: groupId, name: null });
    const theirs = await call(postReplayStart, { apiKey: other.apiKey, body: { traceFunctionKey: FN, limit: 1, experimentGroupId: groupId } });
    expect(theirs.status).toBe(400);
    expect((await req(getExperimentById, { params: { id: e.id }, apiKey: other.apiKey })).status).toBe(404);
    expect((await req(getExperimentById, { params: { id: "nope" } })).status).toBe(404);
  });

  it("names an experiment, moves it between groups, and builds groups of experiments", async () => {
    const a = await experiment();
    const b = await experiment();
    const patched = await req(patchExperiment, { params: { id: a.id }, body: { name: "baseline", notes: "before the fix" }, method: "PATCH" });
    expect(patched.body.experiment).toMatchObject({ name: "baseline", notes: "before the fix", experimentGroupId: null });
    expect((await req(patchExperiment, { params: { id: a.id }, body: { name: "x" }, method: "PATCH", apiKey: other.apiKey })).status).toBe(404);
    const created = await req(postExperimentGroup, { body: { experimentIds: [a.id, b.id], name: "refunds", notes: "two tries" } });
    expect(created.status).toBe(200);
    const groupId = created.body.group.id;
    expect(created.body).toMatchObject({ created: true, group: { name: "refunds", notes: "two tries", experimentCount: 2 } });
    expect((await req(postExperimentGroup, { body: { experimentGroupId: groupId, name: "refunds v2" } })).body.group).toMatchObject({ name: "refunds v2", notes: "two tries" });
    expect((await req(postExperimentGroup, { body: { experimentGroupId: groupId } })).status).toBe(400);
    expect((await req(postExperimentGroup, { body: { name: "empty" } })).status).toBe(400);
    const foreign = await call(postExperimentGroup, { apiKey: other.apiKey, body: { experimentIds: [a.id] } });
    expect(foreign.status).toBe(404);
    const got = (await req(getExperimentGroupById, { params: { id: groupId } })).body;
    expect(got.experiments.map((x: { id: string }) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect((await req(listExperimentGroups, {})).body.groups.map((g: { id: string }) => g.id)).toContain(groupId);
    expect((await call(listExperimentGroups, { apiKey: other.apiKey })).body.groups).toEqual([]);
    expect((await req(getExperimentGroupById, { params: { id: groupId }, apiKey: other.apiKey })).status).toBe(404);
    // null takes an experiment out of its group.
    await req(patchExperiment, { params: { id: b.id }, body: { experimentGroupId: null }, method: "PATCH" });
    expect((await req(getExperimentGroupById, { params: { id: groupId } })).body.experiments.map((x: { id: string }) => x.id)).toEqual([a.id]);
  });

  it("attaches graders to an experiment and a group and re-runs them over the replay traces with progress", async () => {
    const e = await experiment();
    expect((await req(postExperimentRerun, { params: { id: e.id }, body: {} })).status).toBe(400); // no graders yet
    expect((await req(postExperimentGraders, { params: { id: e.id }, body: { graderIds: [otherFnGrader] } })).status).toBe(400);
    expect((await req(postExperimentGraders, { params: { id: e.id }, body: { graderIds: [newId()] } })).status).toBe(400);
    const added = await req(postExperimentGraders, { params: { id: e.id }, body: { graderIds: [grader] } });
    expect(added.body).toEqual({ experimentId: e.id, graderIds: [grader] });
    const started = ZStartRerunResponse.parse((await req(postExperimentRerun, { params: { id: e.id }, body: {} })).body);
    expect(started.run).toMatchObject({ experimentId: e.id, datasetId: null, graderIds: [grader] });
    const done = await untilDone(() => req(getExperimentRerun, { params: { id: e.id }, path: `/api/sdk/experiments/${e.id}/rerunGraders?runId=${started.run.id}` }));
    expect(done).toMatchObject({ status: "completed", result: { tracesGraded: 1, gradersRun: 1 } });
    const report = (await req(getExperimentById, { params: { id: e.id } })).body;
    expect(report.graders).toEqual([{ graderId: grader, graderName: "no errors", passed: 1, failed: 0, errored: 0, passRate: 1, scored: 0, meanScore: null, categories: {} }]);
    expect((await req(postExperimentRemoveGraders, { params: { id: e.id }, body: { graderIds: [grader] } })).body.graderIds).toEqual([]);

    const groupId = (await req(postExperimentGroup, { body: { experimentIds: [e.id] } })).body.group.id;
    await req(postGroupGraders, { params: { id: groupId }, body: { graderIds: [grader] } });
    const groupRun = ZStartRerunResponse.parse((await req(postGroupRerun, { params: { id: groupId }, body: { graderIds: [grader] } })).body);
    expect(groupRun.run).toMatchObject({ experimentGroupId: groupId, graderIds: [grader] });
    expect((await req(postGroupRerun, { params: { id: groupId }, body: {}, apiKey: other.apiKey })).status).toBe(404);
  });

  it("reports totals, the change against the originals and each approved assertion's results with evidence", async () => {
    const e = await experiment();
    const saved = await call(postAssertions, { apiKey: org.apiKey, body: { updates: [{ traceId: e.original, assertions: [{ assertion: "answers new" }] }] } });
    const assertionId = saved.body.assertions[0].id;
    const evidence = [{ spanId: e.span, text: "the output says new" }];
    const labels = await call(postAgentLabels, {
      apiKey: org.apiKey,
      body: { labels: [{ traceId: e.original, label: false }, { traceId: e.replay, label: true }, { traceId: e.replay, assertionId, label: true, evidence }] },
    });
    expect(labels.status).toBe(200);
    const report = (await req(getExperimentById, { params: { id: e.id } })).body;
    expect(report.totals).toMatchObject({ replays: 1, completed: 1, passing: 1, failing: 0 });
    expect(report.delta).toMatchObject({ fixed: 1, regressed: 0 });
    expect(report.assertions).toEqual([{
      assertionId, assertion: "answers new", passed: 1, failed: 0, errored: 0, unlabeled: 0,
      results: [{ traceId: e.replay, originalTraceId: e.original, attempt: 0, labelStatus: "labeled", label: true, labelSource: "agent", annotation: null, evidence }],
    }]);
  });
});
