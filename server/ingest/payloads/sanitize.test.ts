import { describe, expect, it } from "vitest";
import { mayNeedSanitizing, sanitizeJsonValue, sanitizeNote } from "./sanitize.ts";

describe("sanitizeJsonValue", () => {
  it("replaces NUL in values and keys, keeping __proto__ as an ordinary key", () => {
    const text = '{"__proto__":{"a\\u0000b":"x\\u0000y\\u0000"},"list":["\\u0000"]}';
    expect(mayNeedSanitizing(text)).toBe(true);
    const counts = { nul: 0, surrogates: 0 };
    const value = sanitizeJsonValue(JSON.parse(text), counts) as Record<string, any>;
    expect(counts).toEqual({ nul: 4, surrogates: 0 });
    expect(Object.keys(value)).toEqual(["__proto__", "list"]);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"a\uFFFDb":"x\uFFFDy\uFFFD"},"list":["\uFFFD"]}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("replaces unpaired surrogates but keeps pairs", () => {
    const counts = { nul: 0, surrogates: 0 };
    const value = sanitizeJsonValue(JSON.parse('["\\ud83d\\ude00", "a\\ud800b"]'), counts);
    expect(value).toEqual(["😀", "a\uFFFDb"]);
    expect(counts.surrogates).toBe(1);
  });

  it("walks deep nesting without recursion", () => {
    const depth = 50_000;
    const value = JSON.parse(`${"[".repeat(depth)}"\\u0000"${"]".repeat(depth)}`);
    const counts = { nul: 0, surrogates: 0 };
    sanitizeJsonValue(value, counts);
    expect(counts.nul).toBe(1);
  });

  it("skips ordinary payloads and describes what it replaced", () => {
    expect(mayNeedSanitizing('{"a":"plain é 😀"}')).toBe(false);
    expect(sanitizeNote({ nul: 0, surrogates: 0 })).toBeUndefined();
    expect(sanitizeNote({ nul: 2, surrogates: 0 })).toEqual({ source: "server", step: "sanitize", error: expect.stringContaining("2 NUL") });
  });
});
