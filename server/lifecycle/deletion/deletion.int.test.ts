// Deleting data (docs/operations.md, "Deleting data"; docs/api.md, "Deleting data"): every surface reads a deleted
// trace as gone at once, the purge job removes its spans, datasets keep their traces, graders and assertions come
// back from their tombstones, bad input changes nothing and another organization's ids are 404s.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { cliActor } from "../../auth/audit/actor.ts";
import { addDatasetTraces } from "../../datasets/dataset-members.service.ts";
import { getDatasetById, postDataset } from "../../datasets/datasets.http.ts";
import { listGraders, postGrader } from "../../graders/graders.http.ts";
import { newId } from "../../ids.ts";
import { callTool, connectClient, serveMcp } from "../../mcp/testing/mcp-client.ts";
import { getExternalSpanRoute } from "../../spans/spans.http.ts";
import { getTraceRoute, listTracesRoute } from "../../traces/traces.http.ts";
import { deleteAssertionRoute, deleteDatasetRoute, deleteGraderRoute, deleteTraceRoute, listDeletedRoute, postDeleteTracesRoute, postRestoreRoute } from "./deletion.http.ts";
import { ZDeleteDatasetResponse, ZDeleteTraceResponse, ZDeleteTracesResponse, ZTombstoneResponse, ZTombstonesResponse } from "./deletion.schemas.ts";
import { countPendingPurges, purgeDeletedTraces } from "./purge.service.ts";
import { startWorkers } from "../../workers.ts";

const KEY = "lifecycle-fn";

describe("deleting data", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: Awaited<ReturnType<typeof serveMcp>>;
  let client: Client;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Deleter");
    other = await createTestOrg(db(), "Bystander");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  /** A trace with something in every table that hangs from it. */
  async function fullTrace(organizationId: string, o: { sessionId?: string; metadata?: Record<string, unknown>; name?: string } = {}) {
    const trace = await createTrace(db(), organizationId, { traceFunctionKey: KEY, ...o });
    const span = await createSpan(db(), organizationId, trace.id, { name: "root", output: "the answer" });
    await createSpan(db(), organizationId, trace.id, { name: "child", parentSpanId: span.id });
    const assertionId = newId();
    await db().prisma.assertion.create({ data: { organizationId, id: assertionId, traceId: trace.id, assertion: "answers" } });
    await db().prisma.traceLabel.create({ data: { organizationId, id: newId(), traceId: trace.id, labelStatus: "labeled", label: true, labelSource: "human" } });
    await db().prisma.traceLabel.create({ data: { organizationId, id: newId(), traceId: trace.id, assertionId, labelStatus: "labeled", label: true, labelSource: "judge" } });
    await db().prisma.graderLabel.create({ data: { organizationId, id: newId(), traceId: trace.id, graderId: newId(), label: true, source: "live_grader" } });
    await db().prisma.traceEvent.create({ data: { organizationId, traceId: trace.id, kind: "trace.completed" } });
    await db().prisma.otelSpanEvent.create({ data: { organizationId, spanId: span.id, traceId: trace.id, eventKey: "k", name: "gen_ai.choice" } });
    return { id: trace.id, spanId: span.id, assertionId };
  }

  async function rowsOf(organizationId: string, traceId: string) {
    const where = { organizationId, traceId };
    return {
      traces: await db().prisma.trace.count({ where: { organizationId, id: traceId } }),
      spans: await db().prisma.span.count({ where }),
      events: await db().prisma.otelSpanEvent.count({ where }),
      labels: await db().prisma.traceLabel.count({ where }),
      graderLabels: await db().prisma.graderLabel.count({ where }),
      assertions: await db().prisma.assertion.count({ where }),
      members: await db().prisma.datasetTrace.count({ where }),
      outbox: await db().prisma.traceEvent.count({ where }),
    };
  }

  async function newDataset(apiKey: string, name: string) {
    const res = await call(postDataset, { apiKey, body: { traceFunctionKey: KEY, name } });
    return res.body.dataset.id as string;
  }

  it("a deleted trace is gone at once from every read, and from the database once the purge ran", async () => {
    const t = await fullTrace(org.organizationId, { name: "forget me please" });
    const datasetId = await newDataset(org.apiKey, "kept");
    await addDatasetTraces(db(), org.organizationId, cliActor, datasetId, [t.id]);

    const res = await call(deleteTraceRoute, { apiKey: org.apiKey, method: "DELETE", params: { traceId: t.id } });
    expect(res.status).toBe(200);
    expect(ZDeleteTraceResponse.parse(res.body)).toEqual({ deletedTraceId: t.id });

    // REST reads.
    expect((await call(getTraceRoute, { apiKey: org.apiKey, params: { traceId: t.id } })).status).toBe(404);
    expect((await call(getExternalSpanRoute, { apiKey: org.apiKey, params: { id: t.spanId } })).status).toBe(404);
    const list = await call(listTracesRoute, { apiKey: org.apiKey, path: `/api/sdk/traces?traceFunctionKey=${KEY}` });
    expect(list.body.traces.map((x: { id: string }) => x.id)).not.toContain(t.id);
    const dataset = await call(getDatasetById, { apiKey: org.apiKey, params: { id: datasetId } });
    expect(dataset.body.dataset.traceCount).toBe(0);
    // MCP reads and search.
    const read = await callTool(client, "get_traces", { traceIds: [t.id] });
    expect(read.text).not.toContain("forget me please");
    const search = await callTool(client, "search_traces", { traceFunctionKey: KEY, searchQuery: "forget me" });
    expect(search.text).not.toContain(t.id);

    // Everything small went with the trace; the spans wait for the purge job.
    expect(await rowsOf(org.organizationId, t.id)).toMatchObject({ traces: 0, labels: 0, graderLabels: 0, assertions: 0, members: 0, outbox: 0 });
    expect(await countPendingPurges(db(), org.organizationId)).toBe(1);
    await purgeDeletedTraces(db(), org.organizationId);
    expect(await rowsOf(org.organizationId, t.id)).toEqual({ traces: 0, spans: 0, events: 0, labels: 0, graderLabels: 0, assertions: 0, members: 0, outbox: 0 });
    expect(await countPendingPurges(db(), org.organizationId)).toBe(0);
  });

  it("the purge job, on the server's job worker, removes a deleted trace's spans", async () => {
    const worker = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
    try {
      const t = await fullTrace(org.organizationId);
      expect((await call(deleteTraceRoute, { apiKey: org.apiKey, method: "DELETE", params: { traceId: t.id } })).status).toBe(200);
      await vi.waitFor(async () => expect(await countPendingPurges(db(), org.organizationId)).toBe(0), { timeout: 30_000, interval: 100 });
      expect(await rowsOf(org.organizationId, t.id)).toMatchObject({ spans: 0, events: 0 });
    } finally {
      await worker.stop();
    }
  });

  it("a filtered delete counts first, refuses a stale count or an unknown filter, then deletes what was counted", async () => {
    const mine = await Promise.all([1, 2, 3].map(() => fullTrace(org.organizationId, { name: "filtered-batch" })));
    const keep = await fullTrace(org.organizationId, { name: "not in the filter" });
    const filter = { traceFunctionKey: KEY, search: "filtered-batch" };
    const dry = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { filter, dryRun: true } });
    expect(ZDeleteTracesResponse.parse(dry.body)).toMatchObject({ dryRun: true, count: 3 });

    const stale = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { filter, confirmCount: 2 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "conflict" });
    for (const bad of [{ filter: { ...filter, colour: "red" }, confirmCount: 3 }, { filter }, { filter, sessionId: "s", confirmCount: 3 }, { filter: { status: "done" }, dryRun: true }, {}]) {
      const res = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect(await db().prisma.trace.count({ where: { organizationId: org.organizationId, id: { in: mine.map((m) => m.id) } } })).toBe(3);

    const done = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { filter, confirmCount: 3 } });
    expect(done.status).toBe(200);
    expect(ZDeleteTracesResponse.parse(done.body).deletedTraceIds.sort()).toEqual(mine.map((m) => m.id).sort());
    expect((await call(getTraceRoute, { apiKey: org.apiKey, params: { traceId: keep.id } })).status).toBe(200);
  });

  it("forgets a customer: every trace of a session id, or of a user id in the metadata", async () => {
    const a = await fullTrace(org.organizationId, { sessionId: "sess-42" });
    const b = await fullTrace(org.organizationId, { sessionId: "sess-42" });
    const u = await fullTrace(org.organizationId, { metadata: { userId: "cust-7" } });
    const custom = await fullTrace(org.organizationId, { metadata: { customer: "cust-7" } });
    const theirs = await fullTrace(other.organizationId, { sessionId: "sess-42", metadata: { userId: "cust-7" } });

    const bySession = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { sessionId: "sess-42" } });
    expect(bySession.body.deletedTraceIds.sort()).toEqual([a.id, b.id].sort());
    const byUser = await callTool(client, "delete_traces", { userId: "cust-7" });
    expect(byUser.isError).toBe(false);
    expect(byUser.data.deletedTraceIds).toEqual([u.id]);
    const byKey = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { userId: "cust-7", metadataKey: "customer" } });
    expect(byKey.body.deletedTraceIds).toEqual([custom.id]);
    // The other organization's trace with the same session and user is untouched.
    expect((await rowsOf(other.organizationId, theirs.id)).traces).toBe(1);
  });

  it("deletes a dataset but never its traces", async () => {
    const t = await fullTrace(org.organizationId);
    const datasetId = await newDataset(org.apiKey, "to-delete");
    await addDatasetTraces(db(), org.organizationId, cliActor, datasetId, [t.id]);
    const res = await call(deleteDatasetRoute, { apiKey: org.apiKey, method: "DELETE", params: { id: datasetId } });
    expect(ZDeleteDatasetResponse.parse(res.body)).toEqual({ deletedDatasetId: datasetId, keptTraceCount: 1 });
    expect((await call(getDatasetById, { apiKey: org.apiKey, params: { id: datasetId } })).status).toBe(404);
    expect((await call(getTraceRoute, { apiKey: org.apiKey, params: { traceId: t.id } })).status).toBe(200);
    const again = await callTool(client, "delete_dataset", { datasetId });
    expect(again.isError).toBe(true);
    expect(again.data.code).toBe("not_found");
  });

  it("a deleted grader leaves every read and comes back from its tombstone with its history", async () => {
    const created = await call(postGrader, { apiKey: org.apiKey, body: { traceFunctionKey: KEY, name: "polite", kind: "rule", config: { target: null, check: { op: "contains", value: "please" } } } });
    const graderId = created.body.grader.id as string;
    const datasetId = await newDataset(org.apiKey, "graded");
    await db().prisma.datasetGrader.create({ data: { organizationId: org.organizationId, datasetId, graderId } });

    const res = await call(deleteGraderRoute, { apiKey: org.apiKey, method: "DELETE", params: { id: graderId } });
    const { tombstone } = ZTombstoneResponse.parse(res.body);
    expect(tombstone).toMatchObject({ kind: "grader", itemId: graderId, name: "polite", deletedVia: "rest", restoredAt: null });
    const listed = await call(listGraders, { apiKey: org.apiKey, path: `/api/sdk/graders?traceFunctionKey=${KEY}` });
    expect(listed.body.graders.map((g: { id: string }) => g.id)).not.toContain(graderId);
    const deleted = await call(listDeletedRoute, { apiKey: org.apiKey, path: "/api/sdk/deleted?kind=grader" });
    expect(ZTombstonesResponse.parse(deleted.body).tombstones.map((x) => x.id)).toContain(tombstone.id);

    const restored = await call(postRestoreRoute, { apiKey: org.apiKey, method: "POST", params: { id: tombstone.id } });
    expect(restored.status).toBe(200);
    const back = await call(listGraders, { apiKey: org.apiKey, path: `/api/sdk/graders?traceFunctionKey=${KEY}` });
    expect(back.body.graders.map((g: { id: string }) => g.id)).toContain(graderId);
    expect(await db().prisma.graderVersion.count({ where: { organizationId: org.organizationId, graderId } })).toBe(1);
    expect(await db().prisma.datasetGrader.count({ where: { organizationId: org.organizationId, graderId } })).toBe(1);
    // Restoring twice is a 404: the tombstone is spent.
    expect((await call(postRestoreRoute, { apiKey: org.apiKey, method: "POST", params: { id: tombstone.id } })).status).toBe(404);
  });

  it("a deleted assertion takes its verdicts with it and comes back with them", async () => {
    const t = await fullTrace(org.organizationId);
    const res = await callTool(client, "delete_assertion", { assertionId: t.assertionId });
    expect(res.isError).toBe(false);
    expect(await db().prisma.assertion.count({ where: { organizationId: org.organizationId, id: t.assertionId } })).toBe(0);
    expect(await db().prisma.traceLabel.count({ where: { organizationId: org.organizationId, assertionId: t.assertionId } })).toBe(0);
    const restored = await callTool(client, "restore_deleted", { id: res.data.tombstone.id });
    expect(restored.isError).toBe(false);
    expect(await db().prisma.assertion.count({ where: { organizationId: org.organizationId, id: t.assertionId } })).toBe(1);
    expect(await db().prisma.traceLabel.count({ where: { organizationId: org.organizationId, assertionId: t.assertionId } })).toBe(1);
  });

  it("another organization's ids are 404s on every route and tool, and nothing of theirs changes", async () => {
    const theirs = await fullTrace(other.organizationId);
    const theirDataset = await newDataset(other.apiKey, "theirs");
    const theirGrader = (await call(postGrader, { apiKey: other.apiKey, body: { traceFunctionKey: KEY, name: "theirs", kind: "rule", config: { target: null, check: { op: "noErrors" } } } })).body.grader.id;
    const theirTombstone = (await call(deleteAssertionRoute, { apiKey: other.apiKey, method: "DELETE", params: { id: theirs.assertionId } })).body.tombstone.id;
    const routes = [
      [deleteTraceRoute, { traceId: theirs.id }],
      [deleteDatasetRoute, { id: theirDataset }],
      [deleteGraderRoute, { id: theirGrader }],
      [deleteAssertionRoute, { id: theirs.assertionId }],
      [postRestoreRoute, { id: theirTombstone }],
    ] as const;
    for (const [route, params] of routes) {
      const res = await call(route, { apiKey: org.apiKey, method: "DELETE", params });
      expect(res.status, JSON.stringify(params)).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    const byIds = await call(postDeleteTracesRoute, { apiKey: org.apiKey, body: { traceIds: [theirs.id] } });
    expect(byIds.body).toMatchObject({ count: 0, notFoundTraceIds: [theirs.id] });
    for (const [tool, args] of [["delete_grader", { graderId: theirGrader }], ["delete_assertion", { assertionId: theirs.assertionId }], ["restore_deleted", { id: theirTombstone }]] as const) {
      const answer = await callTool(client, tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(answer.data.code).toBe("not_found");
    }
    expect((await rowsOf(other.organizationId, theirs.id)).traces).toBe(1);
    expect(await db().prisma.grader.count({ where: { organizationId: other.organizationId, id: theirGrader } })).toBe(1);
    expect(await db().prisma.dataset.count({ where: { organizationId: other.organizationId, id: theirDataset } })).toBe(1);
  });
});
