// Pure rules behind trace metrics, JSON storability and title search.
import { describe, expect, it } from "vitest";
import { durationOf, pickModel, tokensOf, type SpanAggregate } from "./trace-metrics.ts";
import { toStorableJson } from "./storable-json.ts";
import { escapeLike } from "./traces.service.ts";

const agg = (o: Partial<SpanAggregate>): SpanAggregate => ({
  count: 1,
  reported: { input: 0, output: 0, cached: 0, total: 0 },
  sum: { input: null, output: null, cached: null, total: null },
  firstStart: null,
  lastEnd: null,
  ...o,
});

describe("trace metrics", () => {
  it("picks the most frequent model, the earliest seen on ties, the smaller name when both tie", () => {
    const t = (ms: number) => new Date(ms);
    expect(pickModel([])).toBeNull();
    expect(pickModel([{ model: "a", count: 1, firstSeen: t(1) }, { model: "b", count: 2, firstSeen: t(5) }])).toBe("b");
    expect(pickModel([{ model: "a", count: 2, firstSeen: t(9) }, { model: "b", count: 2, firstSeen: t(5) }])).toBe("b");
    expect(pickModel([{ model: "z", count: 2, firstSeen: t(5) }, { model: "y", count: 2, firstSeen: t(5) }])).toBe("y");
  });

  it("sums tokens only when some span reported them", () => {
    expect(tokensOf(undefined)).toBeNull();
    expect(tokensOf(agg({}))).toBeNull();
    expect(tokensOf(agg({ reported: { input: 1, output: 0, cached: 0, total: 0 }, sum: { input: 4, output: null, cached: null, total: null } }))).toEqual({
      input: 4, output: 0, cached: 0, total: 0,
    });
  });

  it("prefers the trace's own start and end, else the span extent", () => {
    const a = agg({ firstStart: new Date(100), lastEnd: new Date(900) });
    expect(durationOf({ startedAt: new Date(0), endedAt: new Date(2000) }, a)).toBe(2000);
    expect(durationOf({ startedAt: new Date(0), endedAt: null }, a)).toBe(800);
    expect(durationOf({ startedAt: null, endedAt: null }, undefined)).toBeNull();
  });
});

describe("storable JSON", () => {
  it("replaces NUL and lone surrogates in strings and keys, keeps __proto__ an ordinary key", () => {
    const input = JSON.parse('{"__proto__":{"x":1},"a\\u0000":["\\ud83d","ok \\ud83d\\ude00"]}');
    const { value, replaced } = toStorableJson(input);
    expect(replaced).toBe(true);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"x":1},"a\uFFFD":["\uFFFD","ok \uD83D\uDE00"]}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(toStorableJson({ a: [1, "b", null] }).replaced).toBe(false);
  });
});

describe("title search", () => {
  it("escapes LIKE wildcards and the escape character", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
  });
});
