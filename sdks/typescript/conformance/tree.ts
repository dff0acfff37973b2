import type { Reprise } from "../src/index.js";
import type { SpanType } from "../src/tracing/types.js";
import type { TreeSpan as ConformanceTreeSpan } from "../../conformance/runner/tree-span.js";

/** A span of the `trace` command, as the conformance runner sends it (sdks/conformance/PROTOCOL.md, A span). */
export type TreeSpan = ConformanceTreeSpan<SpanType>;

/** Expands `{"$repeat": s, "count": n}` anywhere in a value (PROTOCOL.md, Values). */
export function expandValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expandValues);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$repeat === "string" && typeof record.count === "number" && Object.keys(record).length === 2) {
    return record.$repeat.repeat(record.count);
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expandValues(v)]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds `tree` as a function traced as `traceFunctionKey`: the root through `withTrace`, children through
 * `withSpan`. `traceId()` is the id of the last trace it recorded.
 */
export function tracedTree(reprise: Reprise, traceFunctionKey: string, tree: TreeSpan) {
  let traceId = "";
  const body = (span: TreeSpan, isRoot: boolean) => async (..._args: unknown[]) => {
    const trace = reprise.getCurrentTrace();
    if (isRoot) {
      traceId = trace.id ?? "";
      if (span.traceName !== undefined) trace.setName(span.traceName);
      if (span.sessionId !== undefined) trace.setSessionId(span.sessionId);
    }
    if (span.metadata) trace.mergeMetadata(span.metadata);
    for (const context of span.contexts ?? []) reprise.getCurrentSpan().addContext(context);
    for (const child of span.children ?? []) {
      const running = wrapChild(child)(child.input);
      if (child.background) void running.catch(() => {});
      else await running.catch(() => {});
    }
    if (span.sleepMs) await sleep(span.sleepMs);
    if (span.drop) trace.drop();
    if (span.error !== undefined) throw new Error(span.error);
    return span.output;
  };
  const wrapChild = (span: TreeSpan) =>
    reprise.withSpan(span.name, { type: span.type, mockOnReplay: span.mockOnReplay }, body(span, false));
  const fn = reprise.withTrace(traceFunctionKey, body(tree, true), { spanName: tree.name, type: tree.type });
  return { fn, traceId: () => traceId };
}

/** Runs `tree` once as a trace (the `trace` command); the span's own error does not fail the command. */
export async function runTree(reprise: Reprise, traceFunctionKey: string, tree: TreeSpan): Promise<{ traceId: string }> {
  const traced = tracedTree(reprise, traceFunctionKey, tree);
  try {
    await traced.fn(tree.input);
  } catch {
    // recorded on the span (PROTOCOL.md, A span: error)
  }
  return { traceId: traced.traceId() };
}
