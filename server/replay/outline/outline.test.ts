// Trace outlines and span trees from flat rows (docs/replay.md, "Complete", "Span tree").
import { describe, expect, it } from "vitest";
import { isWithheld, outlineErrors, spanTokens, toTraceOutline } from "./outline.ts";
import type { TOutlineSpanRow } from "./outline.queries.ts";
import { buildForest, buildSubtree } from "../../shared/tree.ts";

const t0 = Date.parse("2026-11-22T10:00:00.000Z");
const at = (ms: number) => new Date(t0 + ms);

function row(id: string, parent: string | null, startMs: number, o: Partial<TOutlineSpanRow> = {}): TOutlineSpanRow {
  return {
    id, traceId: "t", parentSpanId: parent, sourceSpanId: `src-${id}`, name: id, type: "function", traceFunctionKey: "fn",
    startedAt: at(startMs), endedAt: at(startMs + 10), durationMs: null, inputTokens: null, outputTokens: null,
    cachedTokens: null, totalTokens: null, model: null, costUsd: null, error: null, errors: null, mocked: false,
    contentOffBySimulationPlan: false, createdAt: at(0), ...o,
  };
}

describe("span trees", () => {
  it("orders children by start time whatever the row order, and roots a span whose parent is absent", () => {
    const rows = [row("c2", "root", 30), row("root", null, 0), row("c1", "root", 10), row("g", "c1", 15), row("orphan", "gone", 5)];
    const forest = buildForest(rows);
    expect(forest.map((n) => n.row.id)).toEqual(["root", "orphan"]);
    expect(forest[0].children.map((n) => n.row.id)).toEqual(["c1", "c2"]);
    expect(forest[0].children[0].children.map((n) => n.row.id)).toEqual(["g"]);
  });

  it("hands the children of a left-out span to its nearest kept ancestor, in start order", () => {
    const rows = [row("root", null, 0), row("hidden", "root", 10), row("a", "hidden", 20), row("b", "root", 15)];
    const forest = buildForest(rows, (r) => r.id !== "hidden");
    expect(forest[0].children.map((n) => n.row.id)).toEqual(["b", "a"]);
  });

  it("builds the subtree under a span and survives a parent cycle", () => {
    const rows = [row("root", null, 0), row("x", "root", 10), row("y", "x", 20), row("p", "q", 1), row("q", "p", 2)];
    expect(buildSubtree(rows, "x")?.children.map((n) => n.row.id)).toEqual(["y"]);
    expect(buildSubtree(rows, "nope")).toBeUndefined();
    // p → q → p: the earliest of the loop (p) becomes a root and keeps q below it; nothing is lost.
    const forest = buildForest(rows);
    expect(forest.map((n) => n.row.id)).toEqual(["root", "p"]);
    expect(forest[1].children.map((n) => n.row.id)).toEqual(["q"]);
  });

  it("orders rows timed in epoch milliseconds as it orders Dates; a span that is its own parent is a root", () => {
    const rows = [row("c2", "root", 30), row("root", null, 0), row("c1", "root", 10), row("tie-b", "root", 10, { createdAt: at(5) }), row("self", "self", 3)];
    const asNumbers = rows.map((r) => ({ ...r, startedAt: r.startedAt!.getTime(), createdAt: r.createdAt.getTime() }));
    const shape = (forest: ReturnType<typeof buildForest<{ id: string; parentSpanId: string | null; startedAt: Date | number | null; createdAt: Date | number }>>) =>
      forest.map((n) => [n.row.id, n.children.map((c) => c.row.id)]);
    expect(shape(buildForest(asNumbers))).toEqual(shape(buildForest(rows)));
    expect(shape(buildForest(rows))).toEqual([["root", ["c1", "tie-b", "c2"]], ["self", []]]);
  });
});

describe("outlines", () => {
  it("leaves out content-off spans unless they recorded an error; sdk capture notes are not errors", () => {
    expect(isWithheld(row("a", null, 0, { contentOffBySimulationPlan: true }))).toBe(true);
    expect(isWithheld(row("a", null, 0, { contentOffBySimulationPlan: true, error: "boom" }))).toBe(false);
    expect(isWithheld(row("a", null, 0, { contentOffBySimulationPlan: true, errors: [{ source: "sdk", error: "trimmed" }] }))).toBe(true);
    expect(isWithheld(row("a", null, 0, { contentOffBySimulationPlan: true, errors: [{ source: "user", error: "x" }] }))).toBe(false);
  });

  it("lists the span's own error as source code, then its errors list; null without any", () => {
    expect(outlineErrors(row("a", null, 0, { error: "boom", errors: [{ source: "sdk", step: "payload_budget", error: "trimmed" }] }))).toEqual([
      { source: "code", error: "boom" },
      { source: "sdk", step: "payload_budget", error: "trimmed" },
    ]);
    expect(outlineErrors(row("a", null, 0))).toBeNull();
  });

  it("gives tokens only when a count was recorded, total defaulting to input + output", () => {
    expect(spanTokens(row("a", null, 0))).toBeNull();
    expect(spanTokens(row("a", null, 0, { inputTokens: 5, outputTokens: 2 }))).toEqual({ input: 5, output: 2, cached: 0, total: 7 });
    expect(spanTokens(row("a", null, 0, { inputTokens: 5, outputTokens: 2, cachedTokens: 1, totalTokens: 9 }))).toEqual({ input: 5, output: 2, cached: 1, total: 9 });
  });

  it("counts every span but shows the tree without withheld ones; spanId is the SDK's id", () => {
    const rows = [
      row("root", null, 0, { type: "agent", durationMs: 100 }),
      row("llm", "root", 10, { type: "llm", model: "m", inputTokens: 3, outputTokens: 4, mocked: true }),
      row("off", "root", 20, { contentOffBySimulationPlan: true }),
    ];
    const outline = toTraceOutline({ id: "t", name: null, status: "completed", traceFunctionKey: "fn" }, rows, {
      spanCount: 3, durationMs: 100, tokens: null, model: null, faithful: true, captureIssues: [],
    });
    // No name: the title is the trace function key (docs/api/traces.md).
    expect(outline).toMatchObject({ traceId: "t", name: "fn", spanCount: 3, durationMs: 100, status: "completed" });
    expect(outline.spans).toHaveLength(1);
    expect(outline.spans[0]).toMatchObject({ spanId: "src-root", type: "agent", durationMs: 100 });
    expect(outline.spans[0].children).toEqual([
      { spanId: "src-llm", name: "llm", type: "llm", traceFunctionKey: "fn", durationMs: 10, tokens: { input: 3, output: 4, cached: 0, total: 7 }, model: "m", errors: null, mocked: true, children: [] },
    ]);
  });
});
