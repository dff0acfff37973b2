// The carrier door's partialSuccess: rejected carriers are counted; spans that are not carriers are a
// warning (0 rejected, a message) that names the native door, and both can come in one answer.
import { describe, expect, it } from "vitest";
import { ignoredSpansNote, partialSuccessOf } from "./otlp-response.ts";

describe("partialSuccessOf", () => {
  it("is absent when nothing was rejected or ignored", () => {
    expect(partialSuccessOf([], [])).toBeUndefined();
  });

  it("warns with 0 rejected when spans were only ignored, naming the native door", () => {
    expect(partialSuccessOf([], [ignoredSpansNote(3)])).toEqual({
      rejectedSpans: 0,
      errorMessage: expect.stringMatching(/^3 span\(s\) ignored: not Reprise carriers.*POST \/v1\/traces on this server/),
    });
  });

  it("counts only the rejected carriers when both happen, and says both", () => {
    const p = partialSuccessOf(["spans[0]: payload is not valid JSON"], [ignoredSpansNote(2)]);
    expect(p?.rejectedSpans).toBe(1);
    expect(p?.errorMessage).toMatch(/^1 carrier\(s\) rejected: spans\[0\]: payload is not valid JSON\. 2 span\(s\) ignored/);
  });
});
