// Retention (docs/operations.md, "Retention"): the period is validated and its changes recorded, over REST and the
// admin CLI; the sweep removes old traces with everything hanging from them and keeps pinned ones and dataset
// members; another organization's traces and pins are untouched and its ids are 404s.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createSpan, createTrace } from "../../../test/factories.ts";
import { runAdminCommand } from "../../auth/admin-commands.ts";
import { ZRetentionResponse } from "../../auth/settings/retention.schemas.ts";
import { cliActor } from "../../auth/audit/actor.ts";
import { addDatasetTraces } from "../../datasets/dataset-members.service.ts";
import { postDataset } from "../../datasets/datasets.http.ts";
import { getPinRoute, getRetentionRoute, putPinRoute, putRetentionRoute } from "./retention.http.ts";
import { ZPinResponse } from "./retention.schemas.ts";
import { sweepRetention } from "./retention.service.ts";
import { deleteTraceRows } from "../deletion/deletion.queries.ts";
import { countPendingPurges, purgeDeletedTraces } from "../deletion/purge.service.ts";
import { queueRetentionSweep, SWEEP_QUEUE } from "../lifecycle.worker.ts";
import { sql } from "../../db/sql.ts";
import { startWorkers } from "../../workers.ts";

const DAY = 86_400_000;

describe("retention", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Keeps 30 days");
    other = await createTestOrg(db(), "Keeps forever");
  });

  const put = (apiKey: string, body: unknown) => call(putRetentionRoute, { apiKey, method: "PUT", body });

  it("validates the period, records each change with what it replaced, and keeps forever by default", async () => {
    const start = await call(getRetentionRoute, { apiKey: org.apiKey });
    expect(ZRetentionResponse.parse(start.body)).toEqual({ retentionDays: null, changes: [] });
    for (const retentionDays of [0, -3, 1.5, "7", 100_000]) {
      const res = await put(org.apiKey, { retentionDays });
      expect(res.status, String(retentionDays)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect((await put(org.apiKey, {})).status).toBe(400);
    expect((await call(getRetentionRoute, { apiKey: org.apiKey })).body.retentionDays).toBeNull();

    expect(ZRetentionResponse.parse((await put(org.apiKey, { retentionDays: 7 })).body).retentionDays).toBe(7);
    const set = ZRetentionResponse.parse((await put(org.apiKey, { retentionDays: 30 })).body);
    expect(set.retentionDays).toBe(30);
    expect(set.changes.map((c) => [c.previousDays, c.retentionDays, c.changedVia])).toEqual([[7, 30, "rest"], [null, 7, "rest"]]);
    expect((await call(getRetentionRoute, { apiKey: other.apiKey })).body.retentionDays).toBeNull();
  });

  it("the admin CLI sets and reads the period, refusing what REST refuses", async () => {
    await expect(runAdminCommand(db(), "set-retention", { org: other.organizationId, days: "0" })).rejects.toThrow();
    await expect(runAdminCommand(db(), "set-retention", { org: other.organizationId, days: "-1" })).rejects.toThrow();
    await expect(runAdminCommand(db(), "set-retention", { org: other.organizationId, days: "2.5" })).rejects.toThrow();
    expect(await runAdminCommand(db(), "set-retention", { org: other.organizationId, days: "90" })).toMatchObject({ retentionDays: 90 });
    expect(await runAdminCommand(db(), "set-retention", { org: other.organizationId, days: "forever" })).toMatchObject({ retentionDays: null });
    const read = await runAdminCommand(db(), "get-retention", { org: other.organizationId });
    expect((read.changes as Array<{ changedVia: string }>).map((c) => c.changedVia)).toEqual(["admin", "admin"]);
  });

  it("pins: set and read over REST; another organization's trace is a 404", async () => {
    const t = await createTrace(db(), org.organizationId);
    const pinned = await call(putPinRoute, { apiKey: org.apiKey, method: "PUT", params: { traceId: t.id }, body: { pinned: true } });
    expect(ZPinResponse.parse(pinned.body)).toMatchObject({ traceId: t.id, pinned: true, pinnedByUserId: org.userId });
    expect((await call(getPinRoute, { apiKey: org.apiKey, params: { traceId: t.id } })).body.pinned).toBe(true);
    expect((await call(putPinRoute, { apiKey: org.apiKey, method: "PUT", params: { traceId: t.id }, body: { pinned: "yes" } })).status).toBe(400);
    expect((await call(putPinRoute, { apiKey: other.apiKey, method: "PUT", params: { traceId: t.id }, body: { pinned: false } })).status).toBe(404);
    expect((await call(getPinRoute, { apiKey: other.apiKey, params: { traceId: t.id } })).status).toBe(404);
    expect((await call(getPinRoute, { apiKey: org.apiKey, params: { traceId: t.id } })).body.pinned).toBe(true);
  });

  it("the sweep removes traces older than the period with their spans, and keeps pinned ones and dataset members", async () => {
    await put(org.apiKey, { retentionDays: 30 });
    const aged = async (organizationId: string, days: number) => {
      const t = await createTrace(db(), organizationId, { traceFunctionKey: "aged" });
      await createSpan(db(), organizationId, t.id);
      await db().prisma.trace.update({ where: { organizationId_id: { organizationId, id: t.id } }, data: { createdAt: new Date(Date.now() - days * DAY) } });
      return t.id;
    };
    const old = await Promise.all([aged(org.organizationId, 45), aged(org.organizationId, 31)]);
    const recent = await aged(org.organizationId, 5);
    const pinned = await aged(org.organizationId, 60);
    await call(putPinRoute, { apiKey: org.apiKey, method: "PUT", params: { traceId: pinned }, body: { pinned: true } });
    const member = await aged(org.organizationId, 60);
    const dataset = await call(postDataset, { apiKey: org.apiKey, body: { traceFunctionKey: "aged", name: "golden" } });
    await addDatasetTraces(db(), org.organizationId, cliActor, dataset.body.dataset.id, [member]);
    const theirs = await aged(other.organizationId, 400);

    const swept = await sweepRetention(db());
    expect(swept.traces).toBeGreaterThanOrEqual(2);
    const left = async (organizationId: string, ids: string[]) =>
      (await db().prisma.trace.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } })).map((r) => r.id).sort();
    expect(await left(org.organizationId, [...old, recent, pinned, member])).toEqual([recent, pinned, member].sort());
    expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId: { in: old } } })).toBe(0);
    expect(await db().prisma.tracePurge.count({ where: { organizationId: org.organizationId } })).toBe(0);
    expect(await left(other.organizationId, [theirs])).toEqual([theirs]);

    // Unpinned, the old trace goes at the next sweep.
    await call(putPinRoute, { apiKey: org.apiKey, method: "PUT", params: { traceId: pinned }, body: { pinned: false } });
    await sweepRetention(db());
    expect(await left(org.organizationId, [pinned])).toEqual([]);
  });

  it("a stopped sweep or purge leaves what it did not reach for the next one", async () => {
    await put(org.apiKey, { retentionDays: 30 });
    const t = await createTrace(db(), org.organizationId, { traceFunctionKey: "stopped" });
    await createSpan(db(), org.organizationId, t.id);
    await db().prisma.trace.update({ where: { organizationId_id: { organizationId: org.organizationId, id: t.id } }, data: { createdAt: new Date(Date.now() - 40 * DAY) } });
    const stopped = AbortSignal.abort();
    expect(await sweepRetention(db(), new Date(), stopped)).toEqual({ organizations: 0, traces: 0, spanRows: 0 });
    expect(await db().prisma.trace.count({ where: { organizationId: org.organizationId, id: t.id } })).toBe(1);
    // Deleted but not purged: the spans wait in trace_purges, untouched by a stopped purge.
    await db().transaction((tx) => deleteTraceRows(tx, org.organizationId, [t.id], new Date()));
    expect(await purgeDeletedTraces(db(), org.organizationId, stopped)).toEqual({ traces: 0, rows: 0 });
    expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId: t.id } })).toBe(1);
    expect(await countPendingPurges(db(), org.organizationId)).toBe(1);
    expect((await sweepRetention(db())).spanRows).toBeGreaterThanOrEqual(1);
    expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId: t.id } })).toBe(0);
    expect(await countPendingPurges(db(), org.organizationId)).toBe(0);
  });

  it("the sweep is a pg-boss job on a cron schedule, worked by the server's job worker", async () => {
    const worker = await startWorkers(db(), { pollIntervalMs: 100, maintenanceIntervalSeconds: 1 });
    try {
      const schedules = await db().sql.query<{ cron: string }>(sql`SELECT cron FROM pgboss.schedule WHERE name = ${SWEEP_QUEUE}`);
      expect(schedules).toEqual([{ cron: "17 * * * *" }]);
      await put(org.apiKey, { retentionDays: 1 });
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: "job" });
      await createSpan(db(), org.organizationId, t.id);
      await db().prisma.trace.update({ where: { organizationId_id: { organizationId: org.organizationId, id: t.id } }, data: { createdAt: new Date(Date.now() - 2 * DAY) } });
      await queueRetentionSweep(db());
      await vi.waitFor(async () => expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId: t.id } })).toBe(0), { timeout: 60_000, interval: 200 });
      expect(await db().prisma.trace.count({ where: { organizationId: org.organizationId, id: t.id } })).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});
