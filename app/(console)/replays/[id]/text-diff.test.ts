import { describe, expect, it } from "vitest";
import { diffLines } from "./text-diff.ts";

describe("diffLines", () => {
  it("keeps common lines and marks removed and added ones in order", () => {
    expect(diffLines("a\nb\nc", "a\nx\nc\nd")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "x" },
      { kind: "same", text: "c" },
      { kind: "added", text: "d" },
    ]);
    expect(diffLines("same", "same")).toEqual([{ kind: "same", text: "same" }]);
  });

  it("gives up on very long inputs", () => {
    expect(diffLines("x\n".repeat(500), "y")).toBeNull();
  });
});
