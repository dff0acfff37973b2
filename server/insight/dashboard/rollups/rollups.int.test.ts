// The dashboard's rollups against a real database: after the job, and after late spans, deletes, label changes and
// a price recompute (before and after the job runs again), every figure read through the rollups equals the figure
// the exact statements give over the raw rows (percentiles: within the histogram's ±2.5%).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../../test/harness.ts";
import { sql } from "../../../db/sql.ts";
import type { DbClient } from "../../../db/client.ts";
import { postExternalSpan, postExternalTrace } from "../../../ingest/ingest.http.ts";
import { completionPayload, spanPayload } from "../../../ingest/testing/payloads.ts";
import { newId } from "../../../ids.ts";
import { deleteTracesById } from "../../../lifecycle/deletion/deletion.service.ts";
import { recordTraceVerdict } from "../../../labels/trace-labels.service.ts";
import { upsertGraderLabel } from "../../../labels/grader-labels.queries.ts";
import { writeCosts } from "../../cost/cost.queries.ts";
import { getDashboard, ROLLUP_CHARTS, scopeOf } from "../dashboard.service.ts";
import { LATENCY_RATIO, markTracesChanged } from "./rollups.queries.ts";
import { planRead } from "./rollups.read.ts";
import { refreshOrganizationRollups } from "./rollups.service.ts";

const to = new Date("2026-09-16T00:37:00Z");
const range = { from: new Date(to.getTime() - 30 * 86_400_000), to };
const ROLLBACK = new Error("rollback");

describe("dashboard rollups", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  const graderId = newId();
  const traceIds: string[] = [];
  let canonical: Map<string, string>;

  const send = (traceId: string, fn: string, startedAt: Date, ms: number, model: string, error?: string) =>
    call(postExternalSpan, {
      apiKey: a.apiKey,
      body: spanPayload({ traceId, traceFunctionKey: fn, startedAt: startedAt.toISOString(), endedAt: new Date(startedAt.getTime() + ms).toISOString(), contexts: [{ model, inputTokens: 1000, outputTokens: 100 }], error }),
    });

  /** The dashboard as the exact statements read it (no rollup state), in a transaction rolled back. */
  async function rawDashboard(input = range) {
    let out: Awaited<ReturnType<typeof getDashboard>> | undefined;
    await db().transaction(async (tx) => {
      await tx.sql.query(sql`DELETE FROM dashboard_rollup_state WHERE organization_id = ${a.organizationId}::uuid`);
      out = await getDashboard(tx, a.organizationId, input);
      throw ROLLBACK;
    }).catch((e) => { if (e !== ROLLBACK) throw e; });
    return out!;
  }

  /** Every figure equal; percentiles within the histogram's error. */
  function expectSame(got: unknown, want: unknown, path = "") {
    if (/\.(p50|p95|p99)$/.test(path) && typeof want === "number") {
      expect(Math.abs((got as number) - want) / Math.max(want, 1), path).toBeLessThanOrEqual(0.026);
    } else if (path.endsWith(".costUsd") && typeof want === "number") {
      expect(got as number, path).toBeCloseTo(want, 9);
    } else if (Array.isArray(want)) {
      expect((got as unknown[]).length, path).toBe(want.length);
      want.forEach((w, i) => expectSame((got as unknown[])[i], w, `${path}[${i}]`));
    } else if (want && typeof want === "object") {
      expect(Object.keys(got as object).sort(), path).toEqual(Object.keys(want).sort());
      for (const k of Object.keys(want)) expectSame((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${path}.${k}`);
    } else expect(got, path).toEqual(want);
  }

  /** Rolled and raw agree, and the rollups are really read (some hours come from them). */
  async function expectRollupsEqualRaw(input = range) {
    const plan = await planRead(db(), scopeOf(a.organizationId, input));
    const got = await getDashboard(db(), a.organizationId, input);
    expectSame(got, await rawDashboard(input));
    return plan;
  }

  /** Ten minutes pass: the job's last read and every newer write move ten minutes back, so the rollups of the
   * hours the job recomputed are trusted once it runs again. (Parameters, not arithmetic on columns: Citus refuses
   * stable functions of columns in an UPDATE.) */
  const settle = async () => {
    const state = await db().sql.query<{ watermark: Date }>(sql`SELECT watermark FROM dashboard_rollup_state WHERE organization_id = ${a.organizationId}::uuid`);
    const watermark = new Date(new Date(state[0]!.watermark).getTime() - 10 * 60_000).toISOString();
    const cutoff = new Date(Date.now() - 10 * 60_000).toISOString();
    await db().sql.query(sql`UPDATE dashboard_rollup_state SET watermark = ${watermark}::timestamptz WHERE organization_id = ${a.organizationId}::uuid`);
    await db().sql.query(sql`UPDATE traces SET updated_at = ${cutoff}::timestamptz WHERE organization_id = ${a.organizationId}::uuid AND updated_at > ${cutoff}::timestamptz`);
  };
  /** The fixture's writes as if made live, at their traces' start. */
  const writtenLive = (d: DbClient) => d.sql.query(sql`UPDATE traces SET updated_at = started_at WHERE organization_id = ${a.organizationId}::uuid`);

  beforeAll(async () => {
    // Every chart that has a rollup read uses it here, whether or not the dashboard turns it on.
    for (const chart of ["volume", "functions", "usage", "graders", "verdicts"] as const) ROLLUP_CHARTS.add(chart);
    a = await createTestOrg(db(), "A");
    const other = await createTestOrg(db(), "B");
    const fixture: Array<[string, Date, number, string, string?]> = [
      ["answer", new Date(range.from.getTime() + 10 * 60_000), 800, "gpt-4o"], // in the range's partial first hour
      ["answer", new Date("2026-09-01T10:05:00Z"), 2000, "gpt-4o"],
      ["answer", new Date("2026-09-01T10:20:00Z"), 3500, "gpt-4o-mini", "boom"],
      ["answer", new Date("2026-09-01T10:40:00Z"), 1200, "acme-local"],
      ["summarize", new Date("2026-09-01T14:01:00Z"), 900, "gpt-4o"],
      ["summarize", new Date("2026-09-03T14:30:00Z"), 15000, "claude-3-5-haiku-20241022"],
      ["summarize", new Date("2026-09-10T03:00:00Z"), 45, "gpt-4o"],
      ["answer", new Date("2026-09-16T00:10:00Z"), 700, "gpt-4o-mini"], // in the range's partial last hour
    ];
    for (const [fn, start, ms, model, err] of fixture) {
      const id = randomUUID();
      traceIds.push(id);
      expect((await send(id, fn, start, ms, model, err)).status).toBe(200);
      const end = new Date(start.getTime() + ms).toISOString();
      const completion = completionPayload({ traceId: id, traceFunctionKey: fn, expectedSpanCount: 1, externalTrace: { started_at: start.toISOString(), ended_at: end } });
      expect((await call(postExternalTrace, { apiKey: a.apiKey, body: completion })).status).toBe(200);
    }
    const rows = await db().prisma.trace.findMany({ where: { organizationId: a.organizationId }, select: { id: true, sourceTraceId: true } });
    canonical = new Map(rows.map((r) => [r.sourceTraceId, r.id]));
    await db().prisma.grader.create({ data: { organizationId: a.organizationId, id: graderId, traceFunctionKey: "answer", name: "polite", kind: "rule", config: {} } });
    for (const [i, label] of [[1, true], [2, false], [3, true]] as const) {
      await db().prisma.graderLabel.create({ data: { organizationId: a.organizationId, id: newId(), traceId: canonical.get(traceIds[i]!)!, graderId, label, source: "grader" } });
    }
    await db().prisma.traceLabel.create({
      data: { organizationId: a.organizationId, id: newId(), traceId: canonical.get(traceIds[4]!)!, labelStatus: "labeled", label: false, labelSource: "human", approved: true, approvalState: "approved" },
    });
    expect((await send(randomUUID(), "answer", new Date("2026-09-01T10:30:00Z"), 100, "gpt-4o")).status).toBe(200);
    void other;
    await writtenLive(db());
    const first = await refreshOrganizationRollups(db(), a.organizationId);
    expect(first.hours).toBeGreaterThan(0);
    await settle();
  });

  it("reads whole settled hours from the rollups, equal to the raw figures", async () => {
    const plan = await expectRollupsEqualRaw();
    expect(plan?.rolled.length).toBeGreaterThan(0);
    // The partial hours at both ends are read raw.
    expect(plan!.raw[0]!.start).toEqual(range.from);
    expect(plan!.raw.at(-1)!.end).toEqual(range.to);
    const d = await getDashboard(db(), a.organizationId, range);
    // The fixture's eight, and one more that never completed (pending traces count).
    expect(d.functions.totals.traces).toBe(9);
    expect(d.volume.reduce((n, v) => n + v.traces, 0)).toBe(9);
    // Hour-wide buckets start on whole hours, the first cut at the range's start.
    expect(d.volume[0]!.start).toBe(range.from.toISOString());
    expect(new Date(d.volume[1]!.start).getTime() % 3_600_000).toBe(0);
    // One function, and a week's range (3-hour buckets).
    await expectRollupsEqualRaw({ ...range, traceFunctionKey: "summarize" } as typeof range);
    await expectRollupsEqualRaw({ from: new Date("2026-08-29T07:13:00Z"), to: new Date("2026-09-05T07:13:00Z") });
  });

  it("stays equal after a late span, before and after the job runs again", async () => {
    // A second LLM call arrives for a trace that started weeks ago.
    const late = traceIds[1]!;
    expect((await call(postExternalSpan, { apiKey: a.apiKey, body: spanPayload({ traceId: late, traceFunctionKey: "answer", startedAt: "2026-09-01T10:05:01.000Z", endedAt: "2026-09-01T10:05:02.000Z", contexts: [{ model: "gpt-4o-mini", inputTokens: 5000, outputTokens: 500 }] }) })).status).toBe(200);
    const before = await expectRollupsEqualRaw();
    expect(before!.raw.some((r) => r.start.toISOString() === "2026-09-01T10:00:00.000Z")).toBe(true);
    expect((await refreshOrganizationRollups(db(), a.organizationId)).hours).toBeGreaterThanOrEqual(1);
    await settle();
    // Still raw until a run of the job reads the changes more than the settle margin after they were stamped.
    expect((await planRead(db(), scopeOf(a.organizationId, range)))!.raw.some((r) => r.start.toISOString() === "2026-09-01T10:00:00.000Z")).toBe(true);
    await refreshOrganizationRollups(db(), a.organizationId);
    const after = await expectRollupsEqualRaw();
    expect(after!.raw.some((r) => r.start.toISOString() === "2026-09-01T10:00:00.000Z")).toBe(false);
  });

  it("stays equal after labels change and a trace is deleted", async () => {
    // A person turns a pass into a fail, and a human verdict lands on another trace.
    await db().transaction((tx) => upsertGraderLabel(tx, { organizationId: a.organizationId, traceId: canonical.get(traceIds[3]!)!, graderId, label: false, source: "human" }));
    await db().transaction((tx) => recordTraceVerdict(tx, { organizationId: a.organizationId, traceId: canonical.get(traceIds[5]!)!, assertionId: null, labelStatus: "labeled", label: true, labelSource: "human", approved: true } as Parameters<typeof recordTraceVerdict>[1]));
    await deleteTracesById(db(), a.organizationId, { userId: null, via: "rest" }, [canonical.get(traceIds[6]!)!]);
    await expectRollupsEqualRaw();
    await refreshOrganizationRollups(db(), a.organizationId);
    await settle();
    const plan = await expectRollupsEqualRaw();
    expect(plan?.rolled.length).toBeGreaterThan(0);
    expect((await db().sql.query(sql`SELECT 1 FROM dashboard_rollup_dirty WHERE organization_id = ${a.organizationId}::uuid`)).length).toBe(0);
  });

  it("stays equal after a price recompute writes new costs", async () => {
    const id = canonical.get(traceIds[4]!)!;
    const spans = await db().sql.query<{ id: string }>(sql`SELECT id::text AS id FROM spans WHERE organization_id = ${a.organizationId}::uuid AND trace_id = ${id}::uuid`);
    await db().transaction((tx) => writeCosts(tx, a.organizationId, [id], spans.map((s) => ({ id: s.id, cost: 1.5 }))));
    await expectRollupsEqualRaw();
    await refreshOrganizationRollups(db(), a.organizationId);
    await settle();
    const d = await expectRollupsEqualRaw();
    expect(d?.rolled.length).toBeGreaterThan(0);
  });

  describe("the latency histogram, one row per hour and function", () => {
    const hour = new Date("2026-09-05T08:00:00Z");
    const at = (min: number) => new Date(hour.getTime() + min * 60_000);
    // Two functions in one hour, one of them in the next hour too; latencies over two decades, some repeated.
    const latencies: Array<[string, Date, number]> = [
      ["answer", at(2), 50], ["answer", at(7), 120], ["answer", at(11), 120], ["answer", at(30), 900], ["answer", at(44), 4000],
      ["summarize", at(5), 300], ["summarize", at(15), 300], ["summarize", at(50), 7000],
      ["answer", at(65), 60], ["answer", at(95), 2500],
    ];
    const bucket = (ms: number) => (ms < 1 ? 0 : 1 + Math.floor(Math.log(ms) / Math.log(LATENCY_RATIO)));
    const stored = (fn: string) => db().sql.query<{ kind: string; traces: number; buckets: number[]; counts: number[] }>(sql`
      SELECT kind, traces::int AS traces, latency_buckets AS buckets, latency_counts AS counts FROM dashboard_rollups
      WHERE organization_id = ${a.organizationId}::uuid AND hour = ${hour.toISOString()}::timestamptz AND fn = ${fn} AND kind = 'traces'`);
    const windows = [
      range,
      { from: new Date("2026-09-04T12:00:00Z"), to: new Date("2026-09-06T12:00:00Z") }, // hour-wide buckets
      { from: new Date("2026-09-05T07:30:00Z"), to: new Date("2026-09-05T10:30:00Z") }, // functions from rollups, volume raw
    ];

    beforeAll(async () => {
      for (const [fn, start, ms] of latencies) {
        const id = randomUUID();
        expect((await send(id, fn, start, ms, "gpt-4o")).status).toBe(200);
        const completion = completionPayload({ traceId: id, traceFunctionKey: fn, expectedSpanCount: 1, externalTrace: { started_at: start.toISOString(), ended_at: new Date(start.getTime() + ms).toISOString() } });
        expect((await call(postExternalTrace, { apiKey: a.apiKey, body: completion })).status).toBe(200);
      }
      // Written weeks after their start: late changes, rolled up by the job's next runs.
      await refreshOrganizationRollups(db(), a.organizationId);
      await settle();
      await refreshOrganizationRollups(db(), a.organizationId);
    });

    it("stores one 'traces' row per hour and function holding the histogram, and merges them across hours and functions", async () => {
      const rows = await db().sql.query<{ kind: string; n: number; groups: number }>(sql`
        SELECT kind, count(*)::int AS n, count(DISTINCT (hour, fn))::int AS groups FROM dashboard_rollups
        WHERE organization_id = ${a.organizationId}::uuid GROUP BY kind`);
      expect(rows.map((r) => r.kind)).not.toContain("latency");
      const traces = rows.find((r) => r.kind === "traces")!;
      expect(traces.n).toBe(traces.groups);
      expect(await stored("kanswer")).toEqual([{ kind: "traces", traces: 5, buckets: [bucket(50), bucket(120), bucket(900), bucket(4000)], counts: [1, 2, 1, 1] }]);
      expect(await stored("ksummarize")).toEqual([{ kind: "traces", traces: 3, buckets: [bucket(300), bucket(7000)], counts: [2, 1] }]);
      for (const input of windows) {
        const plan = await expectRollupsEqualRaw(input);
        expect(plan!.rolled.some((r) => r.start <= hour && r.end > hour), input.from.toISOString()).toBe(true);
      }
      const d = await getDashboard(db(), a.organizationId, windows[1]!);
      expect(d.functions.functions.find((f) => f.traceFunctionKey === "answer")!.traces).toBe(7);
    });

    it("reads an hour made stale raw, and the job rebuilds its histogram", async () => {
      const [trace] = await db().sql.query<{ id: string }>(sql`
        SELECT id::text AS id FROM traces WHERE organization_id = ${a.organizationId}::uuid AND started_at = ${at(30).toISOString()}::timestamptz`);
      // A wrong stored histogram shows in the figures read from it...
      await db().sql.query(sql`UPDATE dashboard_rollups SET latency_buckets = '{1}', latency_counts = '{5}'
        WHERE organization_id = ${a.organizationId}::uuid AND hour = ${hour.toISOString()}::timestamptz AND fn = 'kanswer' AND kind = 'traces'`);
      const input = windows[2]!;
      expect((await getDashboard(db(), a.organizationId, input)).functions.totals.p95).not.toBeCloseTo((await rawDashboard(input)).functions.totals.p95!, 0);
      // ...until its hour is marked stale: then it is read raw, and the job recomputes it.
      await db().transaction((tx) => markTracesChanged(tx, a.organizationId, [trace!.id]));
      const stale = await expectRollupsEqualRaw(input);
      expect(stale!.raw.some((r) => r.start <= hour && r.end > hour)).toBe(true);
      expect((await refreshOrganizationRollups(db(), a.organizationId)).hours).toBeGreaterThanOrEqual(1);
      expect((await stored("kanswer"))[0]).toMatchObject({ buckets: [bucket(50), bucket(120), bucket(900), bucket(4000)], counts: [1, 2, 1, 1] });
      const rebuilt = await expectRollupsEqualRaw(input);
      expect(rebuilt!.rolled.some((r) => r.start <= hour && r.end > hour)).toBe(true);
    });
  });
});
