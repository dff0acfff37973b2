// Rule graders exactly as docs/graders.md ("Rule graders") defines them: targets (output, span by name and occurrence,
// whole trace), checks (equals, contains, matches, noErrors, maxDurationMs, maxTotalTokens), and
// missing targets giving an errored verdict, never a pass.
import { describe, expect, it } from "vitest";
import { evaluateRule, jsonEqual } from "./checks.ts";
import { type TGradingSpan } from "./grading.schemas.ts";
import { ZCheck, ZRuleConfig } from "../graders/grader-config.schemas.ts";
import { resolveTarget } from "./targets.ts";

const t0 = Date.parse("2026-11-22T10:00:00Z");
function span(id: string, o: Partial<TGradingSpan> & { at?: number; ms?: number } = {}): TGradingSpan {
  const at = o.at ?? 0;
  return {
    id, parentSpanId: null, name: id, type: "function", error: null, input: [], output: null, contentOff: false,
    inputTokens: null, outputTokens: null, totalTokens: null,
    startedAt: new Date(t0 + at), endedAt: new Date(t0 + at + (o.ms ?? 10)),
    ...o,
  };
}

// root (0..1000 ms) → search #0 (10..110, output "alpha"), search #1 (200..300, output {hits:[1,2]}, error),
// answer (400..900, output "The answer is 42"), answer → llm (410..800, tokens 120+30).
const spans: TGradingSpan[] = [
  span("root", { name: "agent", ms: 1000, output: { answer: "The answer is 42", sources: 2 } }),
  span("s0", { name: "search", parentSpanId: "root", at: 10, ms: 100, output: "alpha" }),
  span("s1", { name: "search", parentSpanId: "root", at: 200, ms: 100, output: { hits: [1, 2] }, error: "rate limited" }),
  span("ans", { name: "answer", parentSpanId: "root", at: 400, ms: 500, output: "The answer is 42" }),
  span("llm", { name: "llm", parentSpanId: "ans", at: 410, ms: 390, inputTokens: 120, outputTokens: 30 }),
];
const rule = (target: unknown, check: unknown) => evaluateRule(spans, ZRuleConfig.parse({ target, check }));

describe("targets", () => {
  it("null and {kind:'output'} read the root span's output", () => {
    expect(rule(null, { op: "equals", value: { sources: 2, answer: "The answer is 42" } }).label).toBe(true);
    expect(rule({ kind: "output" }, { op: "contains", value: "answer is 42" }).label).toBe(true);
  });

  it("a span target picks by start order: last by default, first, or a 0-based index", () => {
    expect(rule({ kind: "span", name: "search" }, { op: "equals", value: { hits: [1, 2] } }).label).toBe(true);
    expect(rule({ kind: "span", name: "search", occurrence: "first" }, { op: "equals", value: "alpha" }).label).toBe(true);
    expect(rule({ kind: "span", name: "search", occurrence: 0 }, { op: "equals", value: "alpha" }).label).toBe(true);
    expect(rule({ kind: "span", name: "search", occurrence: 1 }, { op: "equals", value: "alpha" }).label).toBe(false);
  });

  it("a missing span or occurrence is an errored verdict that says what was missing, never a pass", () => {
    const none = rule({ kind: "span", name: "rerank" }, { op: "noErrors" });
    expect(none).toMatchObject({ label: null, reason: null });
    expect(none.failureDiagnostic).toContain('no span named "rerank"');
    const beyond = rule({ kind: "span", name: "search", occurrence: 2 }, { op: "noErrors" });
    expect(beyond.label).toBeNull();
    expect(beyond.failureDiagnostic).toContain("occurs 2 time(s); occurrence 2");
    const rootless = evaluateRule(spans.filter((s) => s.id !== "root").map((s) => ({ ...s, parentSpanId: s.id === "llm" ? "ans" : "gone" })), { target: { kind: "output" }, check: { op: "contains", value: "" } });
    expect(rootless.label).toBeNull();
    expect(rootless.failureDiagnostic).toContain("no root span");
  });

  it("an output withheld by the sim plan is errored, not compared", () => {
    const off = spans.map((s) => (s.id === "ans" ? { ...s, contentOff: true, output: undefined } : s));
    const v = evaluateRule(off, { target: { kind: "span", name: "answer", occurrence: "last" }, check: { op: "contains", value: "42" } });
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toContain("not captured");
  });

  it("a span target's subtree is the span and its descendants", () => {
    const r = resolveTarget(spans, { kind: "span", name: "answer", occurrence: "last" });
    expect(r.ok && r.target.subtree.map((s) => s.id).sort()).toEqual(["ans", "llm"]);
  });
});

describe("checks", () => {
  it("equals is deep JSON equality, key order free, array order significant", () => {
    expect(jsonEqual({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual(1, "1")).toBe(false);
    const v = rule({ kind: "span", name: "search", occurrence: "first" }, { op: "equals", value: "beta" });
    expect(v).toMatchObject({ label: false, failureDiagnostic: null });
    expect(v.reason).toContain('expected "beta"');
  });

  it("contains and matches read the string, or the compact JSON text of a non-string", () => {
    expect(rule({ kind: "span", name: "search" }, { op: "contains", value: '{"hits":[1,2]}' }).label).toBe(true);
    expect(rule({ kind: "span", name: "search" }, { op: "contains", value: '"hits": [1' }).label).toBe(false);
    expect(rule({ kind: "span", name: "search", occurrence: "first" }, { op: "contains", value: "lph" }).label).toBe(true);
    expect(rule({ kind: "span", name: "search" }, { op: "matches", value: '^\\{"hits":\\[\\d,\\d\\]\\}$' }).label).toBe(true);
    expect(rule({ kind: "output" }, { op: "matches", value: "ANSWER IS \\d+", flags: "i" }).label).toBe(true);
    expect(rule({ kind: "output" }, { op: "matches", value: "ANSWER IS \\d+" }).label).toBe(false);
  });

  it("a regular expression that backtracks forever gives an errored verdict instead of hanging", () => {
    const spansLong = [span("root", { output: `${"a".repeat(40)}!` })];
    const v = evaluateRule(spansLong, { target: null, check: ZCheck.parse({ op: "matches", value: "^(a+)+$" }) });
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toContain("took longer than");
  });

  it("noErrors looks at the target's subtree, or the whole trace for null", () => {
    expect(rule(null, { op: "noErrors" }).label).toBe(false);
    expect(rule(null, { op: "noErrors" }).reason).toContain("rate limited");
    expect(rule({ kind: "span", name: "answer" }, { op: "noErrors" }).label).toBe(true);
    expect(rule({ kind: "output" }, { op: "noErrors" }).label).toBe(false);
  });

  it("maxDurationMs measures the subtree's span (earliest start to latest end)", () => {
    expect(rule(null, { op: "maxDurationMs", value: 1000 }).label).toBe(true);
    expect(rule(null, { op: "maxDurationMs", value: 999 }).label).toBe(false);
    expect(rule({ kind: "span", name: "answer" }, { op: "maxDurationMs", value: 500 }).label).toBe(true);
    expect(rule({ kind: "span", name: "answer" }, { op: "maxDurationMs", value: 499 }).label).toBe(false);
  });

  it("maxTotalTokens sums the subtree's tokens; no token data at all is errored, not zero", () => {
    expect(rule(null, { op: "maxTotalTokens", value: 150 }).label).toBe(true);
    expect(rule(null, { op: "maxTotalTokens", value: 149 }).label).toBe(false);
    const v = rule({ kind: "span", name: "search" }, { op: "maxTotalTokens", value: 10 });
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toContain("No token counts");
  });
});

describe("config validation", () => {
  it.each([
    [{ check: { op: "matches", value: "(" } }, "must be a valid regular expression"],
    [{ check: { op: "matches", value: "a", flags: "g" } }, "flags"],
    [{ check: { op: "equals" } }, "value"],
    [{ check: { op: "maxDurationMs", value: -1 } }, "value"],
    [{ check: { op: "nope" } }, "op"],
    [{ target: { kind: "span" }, check: { op: "noErrors" } }, "name"],
    [{ target: { kind: "span", name: "x", occurrence: -1 }, check: { op: "noErrors" } }, "occurrence"],
    [{ check: { op: "noErrors" }, extra: 1 }, "extra"],
  ])("rejects %j", (config, hint) => {
    const parsed = ZRuleConfig.safeParse(config);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain(hint);
  });
});
