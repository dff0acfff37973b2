import { describe, expect, it } from "vitest";
import { packCarriers } from "./packer.js";

const limits = (maxCarriers: number, maxBytes: number) => ({
  maxCarriers,
  maxBytes,
  requestSize: (bytes: number, count: number) => 10 + bytes + Math.max(0, count - 1),
});

describe("packCarriers", () => {
  it("bounds requests by count", () => {
    expect(packCarriers([1, 1, 1, 1, 1], limits(2, 1000))).toEqual([[0, 1], [2, 3], [4]]);
  });
  it("bounds requests by exact size, separators and envelope included", () => {
    // 10 + 40 + 45 + 1 = 96 fits in 96; adding 5 more would not.
    expect(packCarriers([40, 45, 5], limits(100, 96))).toEqual([[0, 1], [2]]);
  });
  it("gives an oversized carrier its own request", () => {
    expect(packCarriers([5, 500, 5], limits(100, 100))).toEqual([[0], [1], [2]]);
  });
});
