// Console procedures for datasets and graders: behaviour and authorization (foreign ids → NOT_FOUND).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTrace } from "../../../test/factories.ts";
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
    expect((await caller.datasets.get({ id: dataset.id })).traceIds).toEqual([traceId]);
    const { grader } = await caller.graders.save({ traceFunctionKey: "answer", name: "short", kind: "rule", config: { check: { op: "maxDurationMs", value: 5000 } } });
    await caller.datasets.addGraders({ id: dataset.id, graderIds: [grader.id] });
    expect((await caller.datasets.get({ id: dataset.id })).dataset.graders.map((g) => g.id)).toEqual([grader.id]);
    await caller.datasets.removeGraders({ id: dataset.id, graderIds: [grader.id] });
    await caller.datasets.removeTraces({ id: dataset.id, traceIds: [traceId] });
    expect((await caller.datasets.get({ id: dataset.id })).traceIds).toEqual([]);
    expect((await caller.datasets.list({})).datasets.map((d) => d.name)).toEqual(["refunds"]);
  });

  it("answers NOT_FOUND for another organization's dataset, and never adds its traces", async () => {
    const { dataset } = await caller.datasets.save({ traceFunctionKey: "answer", name: "private" });
    await expect(theirCaller.datasets.get({ id: dataset.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.datasets.addTraces({ id: dataset.id, traceIds: [traceId] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(theirCaller.datasets.removeTraces({ id: dataset.id, traceIds: [traceId] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await theirCaller.datasets.list({})).datasets).toEqual([]);
    const theirTrace = (await createTrace(db(), other.organizationId, { traceFunctionKey: "answer" })).id;
    const result = await caller.datasets.addTraces({ id: dataset.id, traceIds: [theirTrace] });
    expect(result).toMatchObject({ addedTraceIds: [], skippedTraceIds: [theirTrace] });
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
});
