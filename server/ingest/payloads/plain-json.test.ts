// A payload the server built is validated as a value only when its JSON text would parse back to the same
// value; otherwise it takes the text path, so both give the same outcome (sanitizing notes included).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { spanPayload } from "../testing/payloads.ts";
import { parsePayloadText, parsePayloadValue } from "./parse-payload.ts";
import { isPlainJson } from "./plain-json.ts";

const nested = (depth: number): unknown => (depth === 0 ? "leaf" : { a: nested(depth - 1) });

describe("isPlainJson", () => {
  it("accepts plain JSON values and refuses what JSON text would change or sanitizing would replace", () => {
    expect(isPlainJson({ a: [1, "x", true, null, { b: -2.5 }], __proto__x: "ok" })).toBe(true);
    for (const value of [{ a: "x\u0000" }, { ["k\uD800"]: 1 }, [Number.NaN], { a: Infinity }, { a: undefined }, { a: new Uint8Array(1) }, { a: 1n }]) {
      expect(isPlainJson(value), JSON.stringify(String(Object.values(value)))).toBe(false);
    }
  });

  it("refuses nesting deeper than the text path allows", () => {
    expect(isPlainJson(nested(1000))).toBe(true);
    expect(isPlainJson(nested(1001))).toBe(false);
  });
});

describe("parsePayloadValue", () => {
  it("gives the outcome parsePayloadText gives for the value's JSON text", () => {
    const plain = spanPayload({ traceId: randomUUID() });
    const unclean = spanPayload({ traceId: randomUUID(), input: ["a\u0000b"], output: Number.NaN });
    for (const payload of [plain, unclean, { nope: true }]) {
      const byValue = parsePayloadValue("external_span", structuredClone(payload));
      const byText = parsePayloadText("external_span", JSON.stringify(payload));
      expect(byValue.ok).toBe(byText.ok);
      if (byValue.ok && byText.ok) {
        expect(byValue.item.payload).toEqual(byText.item.payload);
        expect(byValue.item.notes).toEqual(byText.item.notes);
        expect(JSON.stringify(byValue.item.raw)).toBe(JSON.stringify(byText.item.raw));
      } else expect(byValue).toEqual(byText);
    }
    const cleaned = parsePayloadValue("external_span", structuredClone(unclean));
    expect(cleaned.ok && cleaned.item.notes[0]?.error).toMatch(/1 NUL character/);
  });
});
