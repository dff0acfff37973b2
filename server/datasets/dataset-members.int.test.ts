// Dataset membership: traces and graders (docs/api/datasets.md).
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { Database } from "../db/client.ts";
import { newId } from "../ids.ts";
import {
  getDatasetById,
  listDatasetTraces,
  postDataset,
  postDatasetGraders,
  postDatasetTraces,
  postRemoveDatasetGraders,
  postRemoveDatasetTraces,
} from "./datasets.http.ts";
import {
  ZAddGradersResponse,
  ZAddTracesResponse,
  ZDatasetTraceIdsResponse,
  ZRemoveGradersResponse,
  ZRemoveTracesResponse,
} from "./datasets.schemas.ts";

const KEY = "fn-members";

async function createGrader(db: Database, organizationId: string, o: { traceFunctionKey?: string; status?: string; name?: string } = {}) {
  return db.prisma.grader.create({
    data: {
      id: newId(),
      organizationId,
      traceFunctionKey: o.traceFunctionKey ?? KEY,
      name: o.name ?? `g-${newId()}`,
      kind: "rule",
      config: { target: null, check: { op: "noErrors" } },
      status: o.status ?? "active",
    },
  });
}

describe("dataset membership", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let datasetId: string;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
    const res = await call(postDataset, { apiKey: org.apiKey, body: { traceFunctionKey: KEY, name: "members" } });
    datasetId = res.body.dataset.id;
  });

  const post = (handler: typeof postDatasetTraces, body: unknown, o: { apiKey?: string; id?: string } = {}) =>
    call(handler, { apiKey: o.apiKey ?? org.apiKey, params: { id: o.id ?? datasetId }, body });

  it("adds traces of the dataset's trace function; reports already present and skipped ones", async () => {
    const mine = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    const mine2 = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    const otherFn = await createTrace(db(), org.organizationId, { traceFunctionKey: "another-fn" });
    const foreign = await createTrace(db(), other.organizationId, { traceFunctionKey: KEY });
    const before = (await call(getDatasetById, { apiKey: org.apiKey, params: { id: datasetId } })).body.dataset;

    const first = await post(postDatasetTraces, { traceIds: [mine.id.toUpperCase(), otherFn.id, foreign.id, "not-a-uuid", newId()] });
    expect(first.status).toBe(200);
    const body = ZAddTracesResponse.parse(first.body);
    expect(body.addedTraceIds).toEqual([mine.id]);
    expect(body.alreadyPresentTraceIds).toEqual([]);
    expect(body.skippedTraceIds.slice(0, 3)).toEqual([otherFn.id, foreign.id, "not-a-uuid"]);
    expect(body.dataset.traceCount).toBe(1);
    expect(body.dataset.updatedAt > before.updatedAt).toBe(true);

    const second = ZAddTracesResponse.parse((await post(postDatasetTraces, { traceIds: [mine.id, mine2.id, mine2.id] })).body);
    expect(second.addedTraceIds).toEqual([mine2.id]);
    expect(second.alreadyPresentTraceIds).toEqual([mine.id]);
    expect(second.dataset.traceCount).toBe(2);

    // A call that changes nothing leaves updated_at alone.
    const noop = ZAddTracesResponse.parse((await post(postDatasetTraces, { traceIds: [mine.id] })).body);
    expect(noop.dataset.updatedAt).toBe(second.dataset.updatedAt);
    expect(await db().prisma.datasetTrace.count({ where: { traceId: foreign.id } })).toBe(0);
  });

  it("concurrent adds of one trace report it added exactly once", async () => {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(postDatasetTraces, { traceIds: [t.id] })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.addedTraceIds.length === 1).length).toBe(1);
  });

  it("removes membership only; reports ids that were not members", async () => {
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    await post(postDatasetTraces, { traceIds: [t.id] });
    const res = await post(postRemoveDatasetTraces, { traceIds: [t.id, newId(), "x"] });
    expect(res.status).toBe(200);
    const body = ZRemoveTracesResponse.parse(res.body);
    expect(body.removedTraceIds).toEqual([t.id]);
    expect(body.notPresentTraceIds.length).toBe(2);
    expect(await db().prisma.trace.count({ where: { id: t.id } })).toBe(1);
  });

  it("lists member trace ids ascending: complete without limit/cursor, pages otherwise", async () => {
    const { body: ds } = await call(postDataset, { apiKey: org.apiKey, body: { traceFunctionKey: KEY, name: "paging" } });
    const traces = await Promise.all(Array.from({ length: 25 }, () => createTrace(db(), org.organizationId, { traceFunctionKey: KEY })));
    await post(postDatasetTraces, { traceIds: traces.map((t) => t.id) }, { id: ds.dataset.id });
    const sorted = traces.map((t) => t.id).sort();

    const all = await call(listDatasetTraces, { apiKey: org.apiKey, params: { id: ds.dataset.id }, path: "/x" });
    expect(ZDatasetTraceIdsResponse.parse(all.body)).toEqual({ datasetId: ds.dataset.id, traceIds: sorted });

    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const res = await call(listDatasetTraces, { apiKey: org.apiKey, params: { id: ds.dataset.id }, path: `/x?limit=10${cursor ? `&cursor=${cursor}` : ""}` });
      const page = ZDatasetTraceIdsResponse.parse(res.body);
      sizes.push(page.traceIds.length);
      seen.push(...page.traceIds);
      cursor = page.nextCursor ?? null;
    } while (cursor);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(sorted);

    const first = await call(listDatasetTraces, { apiKey: org.apiKey, params: { id: ds.dataset.id }, path: "/x?limit=1" });
    const cursorOnly = await call(listDatasetTraces, { apiKey: org.apiKey, params: { id: ds.dataset.id }, path: `/x?cursor=${first.body.nextCursor}` });
    expect(cursorOnly.body.traceIds).toEqual(sorted.slice(1));
    expect(cursorOnly.body.nextCursor).toBeNull();
  });

  it("assigns active graders of the organization and trace function; reports the rest", async () => {
    const g1 = await createGrader(db(), org.organizationId, { name: "a-grader" });
    const g2 = await createGrader(db(), org.organizationId, { name: "b-grader" });
    const archived = await createGrader(db(), org.organizationId, { status: "archived" });
    const otherFn = await createGrader(db(), org.organizationId, { traceFunctionKey: "another-fn" });
    const foreign = await createGrader(db(), other.organizationId);

    const res = await post(postDatasetGraders, { graderIds: [g1.id, archived.id, otherFn.id, foreign.id, "nope"] });
    expect(res.status).toBe(200);
    const body = ZAddGradersResponse.parse(res.body);
    expect(body.addedGraderIds).toEqual([g1.id]);
    expect(body.skippedGraderIds).toEqual([archived.id, otherFn.id, foreign.id, "nope"]);
    expect(body.dataset.graders).toEqual([{ id: g1.id, name: "a-grader" }]);

    const again = ZAddGradersResponse.parse((await post(postDatasetGraders, { graderIds: [g1.id, g2.id] })).body);
    expect(again.addedGraderIds).toEqual([g2.id]);
    expect(again.alreadyAssignedGraderIds).toEqual([g1.id]);
    expect(again.dataset.graders.map((g) => g.name)).toEqual(["a-grader", "b-grader"]);

    const removed = await post(postRemoveDatasetGraders, { graderIds: [g1.id, foreign.id] });
    expect(removed.status).toBe(200);
    const rb = ZRemoveGradersResponse.parse(removed.body);
    expect(rb.removedGraderIds).toEqual([g1.id]);
    expect(rb.notAssignedGraderIds).toEqual([foreign.id]);
    expect(rb.dataset.graders.map((g) => g.id)).toEqual([g2.id]);
    expect(await db().prisma.grader.count({ where: { id: g1.id } })).toBe(1);
  });

  it("answers 404 on every membership endpoint for another organization's dataset, and changes nothing", async () => {
    const t = await createTrace(db(), other.organizationId, { traceFunctionKey: KEY });
    const g = await createGrader(db(), other.organizationId);
    const cases = [
      () => post(postDatasetTraces, { traceIds: [t.id] }, { apiKey: other.apiKey }),
      () => post(postRemoveDatasetTraces, { traceIds: [t.id] }, { apiKey: other.apiKey }),
      () => post(postDatasetGraders, { graderIds: [g.id] }, { apiKey: other.apiKey }),
      () => post(postRemoveDatasetGraders, { graderIds: [g.id] }, { apiKey: other.apiKey }),
      () => call(listDatasetTraces, { apiKey: other.apiKey, params: { id: datasetId }, path: "/x" }),
      () => post(postDatasetTraces, { traceIds: [t.id] }, { id: newId() }),
      () => post(postDatasetTraces, { traceIds: [t.id] }, { id: "nope" }),
    ];
    for (const run of cases) {
      const res = await run();
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect(await db().prisma.datasetTrace.count({ where: { traceId: t.id } })).toBe(0);
    expect(await db().prisma.datasetGrader.count({ where: { graderId: g.id } })).toBe(0);
  });

  it.each([
    ["no traceIds", postDatasetTraces, {}],
    ["empty traceIds", postDatasetTraces, { traceIds: [] }],
    ["101 traceIds", postDatasetTraces, { traceIds: Array.from({ length: 101 }, () => newId()) }],
    ["101 ids to remove", postRemoveDatasetTraces, { traceIds: Array.from({ length: 101 }, () => newId()) }],
    ["empty graderIds", postDatasetGraders, { graderIds: [] }],
    ["101 graderIds", postDatasetGraders, { graderIds: Array.from({ length: 101 }, () => newId()) }],
    ["non-string ids", postRemoveDatasetGraders, { graderIds: [1] }],
  ])("answers 400 for %s", async (_name, handler, body) => {
    const res = await post(handler, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });

  it.each(["?limit=0", "?limit=101", "?cursor=bad"])("answers 400 for a trace list with %s", async (query) => {
    const res = await call(listDatasetTraces, { apiKey: org.apiKey, params: { id: datasetId }, path: `/x${query}` });
    expect(res.status).toBe(400);
  });
});
