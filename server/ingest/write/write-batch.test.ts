import { describe, expect, it } from "vitest";
import { chunkBySize } from "./write-batch.ts";

describe("chunkBySize", () => {
  it("keeps order and puts an oversized row alone", () => {
    const rows = [10, 10, 30, 5, 5].map((n, i) => ({ i, json: "x".repeat(n) }));
    expect(chunkBySize(rows, 20).map((c) => c.map((r) => r.i))).toEqual([[0, 1], [2], [3, 4]]);
    expect(chunkBySize([], 20)).toEqual([]);
  });
});
