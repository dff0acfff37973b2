// Console procedures for datasets and graders: behaviour and authorization (foreign ids → NOT_FOUND).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { findGraders } from "../../graders/graders.service.ts";
import { signedInCaller } from "../testing.ts";

describe("console dataset and grader procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  let theirCaller: Awaited<ReturnType<typeof signedInCaller>>;
  let traceId: string;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
    theirCaller = await signedInCaller(db(), other.email);
    traceId = (await createTrace(db(), org.organizationId, { traceFunctionKey: "answer" })).id;
    await createSpan(db(), org.organizationId, traceId, { name: "answer", traceFunctionKey: "answer", input: ["Where is order 1042?"], output: "In transit" });
  });

  it("creates, edits and archives a rule grader, visible only to its organization", async () => {
    const { grader, created } = await caller.graders.save({
      traceFunctionKey: "answer", name: "no errors", kind: "rule", config: { target: null, check: { op: "noErrors" } },
    });
    expect(created).toBe(true);
    await caller.graders.save({ id: grader.id, traceFunctionKey: "answer", name: "no errors", kind: "rule", config: grader.config, status: "archived" });
    expect((await caller.graders.list({})).find((g) => g.id === grader.id)?.status).toBe("archived");
    expect(await theirCaller.graders.list({})).toEqual([]);
    await expect(theirCaller.graders.save({ id: grader.id, traceFunctionKey: "answer", name: "stolen", kind: "rule", config: grader.config }))
      .rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await findGraders(db(), org.organizationId)).find((g) => g.id === grader.id)?.name).toBe("no errors");
  });

  it("rejects a grader whose config does not fit its kind, naming the field", async () => {
    await expect(caller.graders.save({ traceFunctionKey: "answer", name: "bad", kind: "rule", config: { check: { op: "nope" } } }))
      .rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("creates a dataset, adds and removes traces and graders", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "answer", name: "refunds", description: "refund questions" });
    const added = await caller.datasets.addTraces({ id: dataset.id, traceIds: [traceId] });
    expect(added).toMatchObject({ addedTraceIds: [traceId] });
    expect((await caller.datasets.members({ id: dataset.id })).members.map((m) => m.traceId)).toEqual([traceId]);
    // Each member with the start of its input, so members of one trace function can be told apart.
    expect((await caller.datasets.members({ id: dataset.id })).members[0]!.preview).toEqual({ input: '["Where is order 1042?"]', output: "In transit" });
    const { grader } = await caller.graders.save({ traceFunctionKey: "answer", name: "short", kind: "rule", config: { check: { op: "maxDurationMs", value: 5000 } } });
    await caller.datasets.addGraders({ id: dataset.id, graderIds: [grader.id] });
    expect((await caller.datasets.get({ id: dataset.id })).dataset.graders.map((g) => g.id)).toEqual([grader.id]);
    await caller.datasets.removeGraders({ id: dataset.id, graderIds: [grader.id] });
    await caller.datasets.removeTraces({ id: dataset.id, traceIds: [traceId] });
    expect(await caller.datasets.members({ id: dataset.id })).toEqual({ total: 0, members: [] });
    expect((await caller.datasets.list({})).datasets.map((d) => d.name)).toEqual(["refunds"]);
  });

  it("answers NOT_FOUND for another organization's dataset, and never adds its traces", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "answer", name: "private" });
    await expect(theirCaller.datasets.get({ id: dataset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.datasets.members({ id: dataset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await theirCaller.datasets.membershipsOf({ traceIds: [traceId] })).toEqual({ [traceId]: [] });
    await expect(theirCaller.datasets.addTraces({ id: dataset.id, traceIds: [traceId] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.datasets.removeTraces({ id: dataset.id, traceIds: [traceId] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirCaller.datasets.list({})).datasets).toEqual([]);
    const theirTrace = (await createTrace(db(), other.organizationId, { traceFunctionKey: "answer" })).id;
    const result = await caller.datasets.addTraces({ id: dataset.id, traceIds: [theirTrace] });
    expect(result).toMatchObject({ addedTraceIds: [], skippedTraceIds: [theirTrace] });
  });

  it("\"New\" refuses an existing dataset or grader name and changes nothing; the upsert used by edits still updates", async () => {
    const first = await caller.datasets.create({ traceFunctionKey: "answer", name: "kept", description: "the original" });
    await expect(caller.datasets.create({ traceFunctionKey: "answer", name: "kept", description: "" }))
      .rejects.toMatchObject({ code: "CONFLICT", message: 'A dataset named "kept" already exists for trace function "answer".' });
    expect((await caller.datasets.get({ id: first.id })).dataset.description).toBe("the original");
    // The same name under another trace function is another dataset.
    expect((await caller.datasets.create({ traceFunctionKey: "other", name: "kept" })).id).not.toBe(first.id);
    await caller.datasets.save({ traceFunctionKey: "answer", name: "kept", description: "edited" });
    expect((await caller.datasets.get({ id: first.id })).dataset.description).toBe("edited");

    const rule = { traceFunctionKey: "answer", name: "live rule", kind: "rule" as const, config: { check: { op: "noErrors" } } };
    const { grader } = await caller.graders.create(rule);
    await expect(caller.graders.create({ ...rule, config: { check: { op: "maxDurationMs", value: 1 } } }))
      .rejects.toMatchObject({ code: "CONFLICT", message: `A grader named "live rule" already exists for trace function "answer" (id ${grader.id}); nothing was written.` });
    expect((await caller.graders.list({})).find((g) => g.id === grader.id)?.config).toMatchObject({ check: { op: "noErrors" } });
    // Another organization may use the same names.
    expect((await theirCaller.graders.create(rule)).grader.id).not.toBe(grader.id);
  });

  it("lists a dataset's members a page at a time, most recently added first, however old the traces", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "paged", name: "all ages" });
    const old = (await createTrace(db(), org.organizationId, { traceFunctionKey: "paged", startedAt: new Date("2020-01-01T00:00:00Z") })).id;
    await caller.datasets.addTraces({ id: dataset.id, traceIds: [old] });
    const newer = [];
    for (let i = 0; i < 3; i++) newer.push((await createTrace(db(), org.organizationId, { traceFunctionKey: "paged" })).id);
    await caller.datasets.addTraces({ id: dataset.id, traceIds: newer });
    const first = await caller.datasets.members({ id: dataset.id, limit: 2 });
    expect(first.total).toBe(4);
    expect(first.members).toHaveLength(2);
    const second = await caller.datasets.members({ id: dataset.id, offset: 2, limit: 2 });
    expect(second.members.at(-1)).toMatchObject({ traceId: old, trace: { id: old, traceFunctionKey: "paged" } });
    expect(new Set([...first.members, ...second.members].map((m) => m.traceId))).toEqual(new Set([old, ...newer]));
    expect(await caller.datasets.membershipsOf({ traceIds: [old, traceId] })).toEqual({ [old]: [dataset.id], [traceId]: expect.any(Array) });
  });

  it("tells the grader form whether an LLM judge can reach a model", async () => {
    const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
    const { resetEnvCache } = await import("../../env.ts");
    try {
      delete process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_BASE_URL;
      resetEnvCache();
      expect(await caller.graders.judgeStatus()).toEqual({ configured: false, baseUrl: "https://api.openai.com/v1" });
      process.env.OPENAI_BASE_URL = "http://127.0.0.1:11434/v1";
      resetEnvCache();
      expect(await caller.graders.judgeStatus()).toMatchObject({ configured: true });
    } finally {
      for (const [k, v] of [["OPENAI_API_KEY", saved.key], ["OPENAI_BASE_URL", saved.base]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnvCache();
    }
  });

  it("starts a grader re-run that the progress query reports, and hides it from other organizations", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "answer", name: "rerun me" });
    await caller.datasets.addTraces({ id: dataset.id, traceIds: [traceId] });
    const { grader } = await caller.graders.save({ traceFunctionKey: "answer", name: "rerun grader", kind: "rule", config: { check: { op: "noErrors" } } });
    await caller.datasets.addGraders({ id: dataset.id, graderIds: [grader.id] });
    const started = await caller.datasets.startRerun({ id: dataset.id });
    expect(started.run.graderIds).toEqual([grader.id]);
    const read = await caller.datasets.rerun({ id: dataset.id, runId: started.run.id });
    expect(read.run?.id).toBe(started.run.id);
    await expect(theirCaller.datasets.startRerun({ id: dataset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.datasets.rerun({ id: dataset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("keeps showing a dataset's finished re-run with its per-trace results", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "answer", name: "rerun results" });
    await caller.datasets.addTraces({ id: dataset.id, traceIds: [traceId] });
    const { grader } = await caller.graders.save({ traceFunctionKey: "answer", name: "results grader", kind: "rule", config: { check: { op: "noErrors" } } });
    await caller.datasets.addGraders({ id: dataset.id, graderIds: [grader.id] });
    const started = await caller.datasets.startRerun({ id: dataset.id });
    expect((await caller.datasets.rerun({ id: dataset.id })).results).toEqual([
      {
        traceId, traceName: expect.any(String), preview: { input: '["Where is order 1042?"]', output: "In transit" },
        graders: [{ graderId: grader.id, graderName: "results grader", graded: null, label: null, reason: null, score: null, category: null }],
      },
    ]);
    // The run finishes (as the grading worker leaves it): no run is active any more, the page still shows it.
    await db().prisma.graderRerunItem.updateMany({ where: { runId: started.run.id }, data: { graded: true, doneAt: new Date() } });
    await db().prisma.graderLabel.create({ data: { id: crypto.randomUUID(), organizationId: org.organizationId, traceId, graderId: grader.id, label: false, labelReason: "an error span", source: "live_grader" } });
    await db().prisma.graderRerun.updateMany({ where: { id: started.run.id }, data: { status: "completed", tracesGraded: 1, gradersRun: 1 } });
    const after = await caller.datasets.rerun({ id: dataset.id });
    expect(after.run).toMatchObject({ id: started.run.id, status: "completed" });
    expect(after.results[0]!.graders).toEqual([{ graderId: grader.id, graderName: "results grader", graded: true, label: false, reason: "an error span", score: null, category: null }]);
  });
});
