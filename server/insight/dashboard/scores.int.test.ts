// The dashboard's score distribution per grader over time (docs/dashboard.md, "Scores"): quartiles and mean of each
// interval's scores, category counts, only the organization's own traces, and the link to the traces behind them:
// the trace list's total for a point's link is the point's count.
import { beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../../test/factories.ts";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { newId } from "../../ids.ts";
import { upsertGraderLabel } from "../../labels/grader-labels.queries.ts";
import { signedInCaller } from "../../trpc/testing.ts";
import { getDashboardChart, scoresChart, scopeOf, type TTraceLink } from "./dashboard.service.ts";

const range = { from: new Date("2026-09-01T00:00:00Z"), to: new Date("2026-09-01T04:00:00Z") };

describe("dashboard scores", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  const scored = newId();
  const categorised = newId();

  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
    const grader = (id: string, organizationId: string, name: string) =>
      db().prisma.grader.create({ data: { id, organizationId, traceFunctionKey: "fn", name, kind: "llm_judge", config: { model: "m", instructions: "x" }, status: "active" } });
    await grader(scored, a.organizationId, "helpfulness");
    await grader(categorised, a.organizationId, "tone");
    const label = async (org: TestOrg, hour: number, graderId: string, v: { score?: number; category?: string; label?: boolean | null }) => {
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: "fn", status: "completed", startedAt: new Date(Date.UTC(2026, 8, 1, hour, 10)) });
      await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: t.id, graderId, label: v.label ?? null, score: v.score, category: v.category, source: "live_grader" });
    };
    for (const s of [1, 2, 3, 4]) await label(a, 0, scored, { score: s });
    await label(a, 2, scored, { score: 10 });
    await label(a, 2, scored, { label: true }); // no score: not in the distribution
    await label(a, 0, categorised, { category: "polite", label: true });
    await label(a, 0, categorised, { category: "polite", label: true });
    await label(a, 1, categorised, { category: "rude", label: false });
    const theirs = newId();
    await grader(theirs, b.organizationId, "theirs");
    await label(b, 0, theirs, { score: 99 });
  });

  it("reads each grader's quartiles and mean per interval, and its category counts", async () => {
    const chart = await getDashboardChart(db(), a.organizationId, range, "scores") as Awaited<ReturnType<typeof import("./dashboard.service.ts").scoresChart>>;
    const help = chart.find((g) => g.graderId === scored)!;
    expect(help).toMatchObject({ name: "helpfulness", scored: 5, categories: {} });
    expect(help.points.map((p) => p.count)).toEqual(expect.arrayContaining([4, 0, 1]));
    const first = help.points.find((p) => p.start === "2026-09-01T00:10:00.000Z")!;
    expect(first).toMatchObject({ count: 4, mean: 2.5, min: 1, p25: 1.75, p50: 2.5, p75: 3.25, max: 4 });
    expect(help.points.find((p) => p.count === 1)).toMatchObject({ mean: 10, p50: 10 });
    expect(help.points.find((p) => p.count === 0)).toMatchObject({ mean: null, p50: null, categories: {} });
    const tone = chart.find((g) => g.graderId === categorised)!;
    expect(tone).toMatchObject({ name: "tone", scored: 0, categories: { polite: 2, rude: 1 } });
    expect(tone.points.find((p) => p.start === "2026-09-01T00:10:00.000Z")!.categories).toEqual({ polite: 2 });
    expect(chart.map((g) => g.name)).not.toContain("theirs");
  });

  it("links every score point, category and total to exactly the traces behind its count", async () => {
    const caller = await signedInCaller(db(), a.email);
    const listTotal = async (link: TTraceLink) => (await caller.traces.list({
      startedFrom: link.from, startedTo: link.to, traceFunctionKey: link.fn, graderId: link.grader,
      graderLabel: link.graderLabel, graderCategory: link.graderCategory,
    } as Parameters<typeof caller.traces.list>[0])).total;
    const chart = await scoresChart(db(), scopeOf(a.organizationId, range));
    const help = chart.find((g) => g.graderId === scored)!;
    // The grader's label-only trace (no score) is left out: a grader's pass/fail link would count it.
    expect(await listTotal(help.link)).toBe(help.scored);
    expect(await listTotal({ ...help.link, graderLabel: undefined })).toBe(1);
    for (const p of help.points.filter((x) => x.count > 0)) expect(await listTotal(p.link)).toBe(p.count);
    const tone = chart.find((g) => g.graderId === categorised)!;
    for (const [category, n] of Object.entries(tone.categories)) expect(await listTotal(tone.categoryLinks[category]!)).toBe(n);
    for (const p of tone.points) for (const [category, n] of Object.entries(p.categories)) expect(await listTotal(p.categoryLinks[category]!)).toBe(n);
    // Another organization's caller, with the same link, sees none of them.
    const theirs = await signedInCaller(db(), b.email);
    expect((await theirs.traces.list({ startedFrom: help.link.from, startedTo: help.link.to, graderId: scored, graderLabel: "scored" })).total).toBe(0);
  });

  it("is part of the dashboard the console reads", async () => {
    const caller = await signedInCaller(db(), a.email);
    const dashboard = await caller.insight.dashboard({ from: range.from.toISOString(), to: range.to.toISOString() });
    expect(dashboard.scores.map((g) => g.name).sort()).toEqual(["helpfulness", "tone"]);
  });
});
