import { describe, expect, it } from "vitest";
import { exceedsJsonDepth } from "./json-depth.ts";

describe("exceedsJsonDepth", () => {
  it("measures nesting outside strings only", () => {
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    expect(exceedsJsonDepth(deep(10), 10)).toBe(false);
    expect(exceedsJsonDepth(deep(11), 10)).toBe(true);
    expect(exceedsJsonDepth(`{"a":"${"[".repeat(50)}","b":{"c":[1]}}`, 10)).toBe(false);
    expect(exceedsJsonDepth(`{"a":"\\"${"{".repeat(30)}"}`, 10)).toBe(false);
    expect(exceedsJsonDepth(`["\\\\", ${deep(20)}]`, 10)).toBe(true);
  });
});

describe("exceedsJsonDepth on wide documents", () => {
  it("scans when there are many brackets but they are not nested deeply", () => {
    const wide = JSON.stringify(Array.from({ length: 3000 }, (_, i) => [i]));
    expect(exceedsJsonDepth(wide, 10)).toBe(false);
    expect(exceedsJsonDepth(`[${wide.slice(1, -1)},${"[".repeat(11)}${"]".repeat(11)}]`, 10)).toBe(true);
  });
});
