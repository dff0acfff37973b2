import { describe, expect, it } from "vitest";
import { escapedBytes, trimPayload } from "./payload-budget.js";

function spanPayload(input: unknown, output: unknown) {
  return {
    type: "sdk-function",
    sourceTraceId: "t",
    rawSpan: {
      id: "s",
      trace_id: "t",
      span_data: { name: "n", type: "llm", input, input_meta: { values: ["Date"], v: 1 }, output },
    },
  };
}

describe("trimPayload", () => {
  it("trims the largest field first and records a payload_budget error", () => {
    const payload = spanPayload("x".repeat(5000), "y".repeat(1000));
    const result = trimPayload(payload, "external_span", 3000);
    const data = payload.rawSpan.span_data as Record<string, unknown>;
    expect(data.input).toBe("<unserializable: too_large_5002_bytes>");
    expect(data.input_meta).toBeUndefined();
    expect(data.output).toBe("y".repeat(1000));
    expect(data.name).toBe("n");
    expect(result.trimmed).toEqual([{ path: "rawSpan.span_data.input", bytes: 5002 }]);
    expect((payload as Record<string, unknown>).errors).toEqual([
      expect.objectContaining({ source: "sdk", step: "payload_budget" }),
    ]);
    expect(result.escapedBytes).toBe(escapedBytes(JSON.stringify(payload)));
    expect(result.escapedBytes).toBeLessThanOrEqual(3000);
  });

  it("measures the escaped carrier, not the raw JSON", () => {
    // Backslash-dense content doubles when escaped into the attribute.
    const payload = spanPayload("\\".repeat(2000), "ok");
    const raw = Buffer.byteLength(JSON.stringify(payload));
    expect(raw).toBeLessThan(4500);
    trimPayload(payload, "external_span", 4500);
    expect(payload.rawSpan.span_data.input).toMatch(/^<unserializable: too_large_/);
  });

  it("leaves payloads within budget alone", () => {
    const payload = spanPayload("a", "b");
    expect(trimPayload(payload, "external_span", 10_000).trimmed).toEqual([]);
    expect((payload as Record<string, unknown>).errors).toBeUndefined();
  });
});
