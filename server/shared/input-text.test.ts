import { describe, expect, it } from "vitest";
import { assertInputText, MAX_INPUT_DEPTH } from "./input-text.ts";

/** The 400's message and issue path for `value`, or null when it passes. */
function refusal(value: unknown, options: Parameters<typeof assertInputText>[1] = { where: "body" }) {
  try {
    assertInputText(value, options);
    return null;
  } catch (error) {
    const e = error as { code: string; message: string; issues?: Array<{ path: string }> };
    return { code: e.code, message: e.message, path: e.issues?.[0]?.path };
  }
}

const nested = (depth: number): unknown => (depth === 0 ? "leaf" : { a: [nested(depth - 1)] });

describe("the text rules", () => {
  it("names the path of a string with a NUL character, through objects and arrays", () => {
    expect(refusal({ items: [{ ok: "x" }, { name: "a\u0000b" }] })).toEqual({
      code: "validation_failed",
      message: "Invalid request body: items.1.name: must not contain NUL characters",
      path: "items.1.name",
    });
  });

  it("names the object holding a key with an unpaired surrogate, and a bad string at the top", () => {
    expect(refusal({ outer: { ["k\uD800"]: 1 } }, { where: "input" })).toMatchObject({
      message: 'Invalid request input: outer: key "k\\ud800" must not contain unpaired UTF-16 surrogates',
      path: "outer",
    });
    expect(refusal("\uDC00", { where: "query" })).toMatchObject({ message: "Invalid request query: must not contain unpaired UTF-16 surrogates", path: "" });
  });

  it("refuses nesting deeper than the limit at the first value too deep, and accepts the limit itself", () => {
    // Each level of `nested` is an object and an array: 2 levels per step.
    expect(refusal(nested(MAX_INPUT_DEPTH / 2))).toBeNull();
    const deep = refusal(nested(MAX_INPUT_DEPTH / 2 + 1));
    expect(deep?.message).toMatch(new RegExp(`is nested deeper than ${MAX_INPUT_DEPTH} levels$`));
    expect(deep?.path).toBe(Array.from({ length: MAX_INPUT_DEPTH / 2 }, () => "a.0").join("."));
  });

  it("checks only the depth of payload fields, and only the depth of a depthOnly value", () => {
    expect(refusal({ payload: { text: "a\u0000" } }, { where: "body", payloadFields: ["payload"] })).toBeNull();
    expect(refusal({ other: { text: "a\u0000" } }, { where: "body", payloadFields: ["payload"] })?.path).toBe("other.text");
    expect(refusal({ text: "a\u0000", ["k\u0000"]: 1 }, { where: "body", depthOnly: true })).toBeNull();
    expect(refusal(nested(MAX_INPUT_DEPTH), { where: "body", depthOnly: true })?.message).toMatch(/nested deeper/);
  });

  it("treats a __proto__ key from JSON as an ordinary key", () => {
    expect(refusal(JSON.parse('{"__proto__": {"x": "a\\u0000"}}'))?.path).toBe("__proto__.x");
  });
});
