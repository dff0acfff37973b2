// The rules themselves: built-in detectors (Luhn-checked cards), custom patterns, field names and JSON paths,
// identities left alone, and the safe-subset check that refuses catastrophic patterns.
import { describe, expect, it } from "vitest";
import { luhnValid } from "./builtins.ts";
import { ZRedactionRules } from "./redaction.schemas.ts";
import { Redactor, type TRedactionCounts } from "./redactor.ts";
import { checkSafePattern } from "./safe-pattern.ts";

const all = ZRedactionRules.parse({ builtins: ["secrets", "emails", "creditCards", "phones"], patterns: [{ name: "ticket", pattern: "TCK-\\d{6}" }], fields: ["password", "$.span_data.input.card"] });

function redact(value: unknown, path: string[] | null = null) {
  const counts: TRedactionCounts = new Map();
  const out = new Redactor(3, all).value(structuredClone(value), counts, path);
  return { out, counts: Object.fromEntries(counts) };
}

describe("redactor", () => {
  it("masks each built-in kind and counts it", () => {
    const text = "mail bob@example.com, key sk-proj-abcdefghijklmnop1234, Bearer abc.def.ghi123, card 4111 1111 1111 1111, call +1 415-555-0132, TCK-123456";
    const { out, counts } = redact(text);
    expect(out).toBe("mail [REDACTED:email], key [REDACTED:secret], [REDACTED:secret], card [REDACTED:credit_card], call [REDACTED:phone], [REDACTED:custom:ticket]");
    expect(counts).toEqual({ email: 1, secret: 2, credit_card: 1, phone: 1, "custom:ticket": 1 });
  });

  it("leaves digits that fail the Luhn check, dates, times and UUIDs", () => {
    const text = "order 4111 1111 1111 1112 at 2026-11-28T20:43:45.123Z id 0b7f4c4e-8a8e-4f5e-9a4b-0d6f0b1c2d3e";
    expect(redact(text).out).toBe(text);
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
  });

  it("masks a named field at any depth and a JSON path only where it points", () => {
    const doc = { span_data: { input: { card: "x", password: "p", nested: [{ Password: { a: 1 } }] }, output: { card: "kept" } } };
    const { out, counts } = redact(doc, []);
    expect(out).toEqual({ span_data: { input: { card: "[REDACTED]", password: "[REDACTED]", nested: [{ Password: "[REDACTED]" }] }, output: { card: "kept" } } });
    expect(counts).toEqual({ "field:card": 1, "field:password": 1, "field:Password": 1 });
  });

  it("never touches the keys it is told to keep", () => {
    const counts: TRedactionCounts = new Map();
    const doc = { id: "bob@example.com", note: "bob@example.com" };
    new Redactor(1, all).value(doc, counts, null, new Set(["id"]));
    expect(doc).toEqual({ id: "bob@example.com", note: "[REDACTED:email]" });
  });
});

describe("custom patterns", () => {
  it("refuses invalid and catastrophic patterns with a reason", () => {
    expect(checkSafePattern("(unclosed")).toMatch(/not a valid regular expression/);
    expect(checkSafePattern("(a+)+$")).toMatch(/nested quantifiers/);
    expect(checkSafePattern("(a|aa)*b")).toMatch(/nested quantifiers/);
    expect(checkSafePattern("(\\w+\\s?)*$")).toMatch(/nested quantifiers/);
    expect(checkSafePattern("(x)\\1")).toMatch(/backreferences/);
    expect(checkSafePattern("a*")).toMatch(/empty string/);
    expect(checkSafePattern("TCK-\\d{6}")).toBeNull();
    expect(checkSafePattern("(?:ab){2}[0-9]+")).toBeNull();
  });

  it("reports a bad pattern as a validation issue on its field", () => {
    const r = ZRedactionRules.safeParse({ patterns: [{ name: "bad", pattern: "(a+)+" }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(["patterns", 0, "pattern"]);
  });
});
