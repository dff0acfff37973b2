import { describe, expect, it } from "vitest";
import { durationMs, parseTimestamp, spanError, spanType, tokensAndModel, truncateKey, MAX_KEY_LENGTH } from "./span-fields.ts";

describe("span fields", () => {
  it("parses 3- and 6-digit fractions and keeps microseconds for durations", () => {
    const start = parseTimestamp("2026-09-01T10:00:00.000120Z");
    const end = parseTimestamp("2026-09-01T10:00:01.250000Z");
    expect(start?.text).toBe("2026-09-01T10:00:00.000120Z");
    expect(durationMs(start, end)).toBe(1250);
    expect(durationMs(parseTimestamp("2026-09-01T10:00:00.100Z"), parseTimestamp("2026-09-01T10:00:00.350Z"))).toBe(250);
  });

  it("treats unusable timestamps as absent and never yields a negative or overflowing duration", () => {
    expect(parseTimestamp("yesterday")).toBeNull();
    expect(parseTimestamp("0000-01-01T00:00:00Z")).toBeNull();
    expect(parseTimestamp(12)).toBeNull();
    expect(durationMs(parseTimestamp("2026-09-01T10:00:01Z"), parseTimestamp("2026-09-01T10:00:00Z"))).toBeNull();
    expect(durationMs(parseTimestamp("1970-01-01T00:00:00Z"), parseTimestamp("2026-09-01T10:00:00Z"))).toBeNull();
  });

  it("coerces span types to the six known ones", () => {
    expect(spanType("llm")).toBe("llm");
    expect(spanType("generation")).toBe("custom");
    expect(spanType(undefined)).toBe("custom");
  });

  it("sums tokens over contexts, with cached from cacheReadTokens or cachedTokens and total from input + output", () => {
    expect(
      tokensAndModel([
        { model: "gpt-x", inputTokens: 12, outputTokens: 3 },
        { region: "eu" },
        { model: "other", inputTokens: 5, outputTokens: 1, cacheReadTokens: 4, totalTokens: 10 },
        { cachedTokens: "2" },
      ]),
    ).toEqual({ input: 17, output: 4, cached: 6, total: 25, reasoning: null, model: "gpt-x" });
    expect(tokensAndModel([{ region: "eu" }])).toEqual({ input: null, output: null, cached: null, total: null, reasoning: null, model: null });
    expect(tokensAndModel("nope").total).toBeNull();
  });

  it("reads the error from span_data.error or OpenAI's error object", () => {
    expect(spanError("boom", undefined)).toBe("boom");
    expect(spanError(undefined, { message: "bad tool", data: {} })).toBe("bad tool");
    expect(spanError(null, null)).toBeNull();
  });

  it("truncates index keys without splitting a surrogate pair", () => {
    expect(truncateKey("abc")).toEqual({ value: "abc", truncated: false });
    const long = `${"a".repeat(MAX_KEY_LENGTH - 1)}😀tail`;
    const cut = truncateKey(long);
    expect(cut.truncated).toBe(true);
    expect(cut.value).toBe("a".repeat(MAX_KEY_LENGTH - 1));
  });
});
