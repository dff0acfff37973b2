import { describe, expect, it } from "vitest";
import { serialize } from "superjson";
import { decodeValue, encodeValue } from "./value-codec.js";

function roundTrip(value: unknown): unknown {
  const encoded = encodeValue(value);
  // What the server stores and returns is plain JSON: go through text like the wire does.
  const wire = JSON.parse(JSON.stringify({ json: encoded.json, meta: encoded.meta })) as { json: unknown; meta?: unknown };
  return decodeValue(wire.json, wire.meta);
}

describe("value codec", () => {
  it("round-trips Dates, Maps, Sets and BigInts through the meta", () => {
    const value = [
      new Date("2026-01-02T03:04:05.678Z"),
      new Map<string, unknown>([["k", 1], ["d", new Date(0)]]),
      new Set([1, 2]),
      10n ** 20n,
      { nested: { when: new Date(5), big: -3n } },
    ];
    const encoded = encodeValue(value);
    expect(encoded.meta).toBeDefined();
    expect(encoded.lost).toEqual([]);
    expect(roundTrip(value)).toEqual(value);
  });

  it("matches superjson's documented shapes", () => {
    expect(encodeValue(new Date(0))).toEqual({
      json: "1970-01-01T00:00:00.000Z",
      meta: { values: ["Date"], v: 1 },
      lost: [],
    });
    expect(encodeValue(["a", 1])).toEqual({ json: ["a", 1], lost: [] });
  });

  it("encodes plain JSON data exactly as superjson would, without meta (fast path)", () => {
    const values = [["q", 1, true, null], { a: { b: [1.5, "x"] } }, "text", 0, [], {}];
    for (const value of values) {
      const encoded = encodeValue(value);
      expect(encoded.json).toEqual(serialize(value).json);
      expect(encoded.meta).toBeUndefined();
    }
    expect(encodeValue([undefined]).meta).toBeDefined();
    expect(encodeValue({ n: -0 }).meta).toBeDefined();
    const shared = { x: 1 };
    expect(encodeValue([shared, shared]).meta).toEqual(serialize([shared, shared]).meta);
  });

  it("keeps undefined, NaN, RegExp, typed arrays, Buffers and circular references", () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const value = { u: undefined, n: Number.NaN, r: /ab/g, t: new Uint16Array([1, 2]), b: Buffer.from("hi"), circular };
    const back = roundTrip(value) as typeof value & { circular: { self: unknown } };
    expect(back.u).toBeUndefined();
    expect(back.n).toBeNaN();
    expect(back.r).toEqual(/ab/g);
    expect(back.t).toEqual(new Uint16Array([1, 2]));
    expect(Array.from(back.b)).toEqual([104, 105]);
    expect(back.circular.self).toBe(back.circular);
    expect(encodeValue(value).lost).toEqual([]);
  });

  it("stubs what cannot round-trip and reports it", () => {
    const value = { f: () => 1, s: Symbol("x"), p: Promise.resolve(1), ok: "yes" };
    const encoded = encodeValue(value);
    expect(encoded.json).toEqual({
      f: "<unserializable: function>",
      s: "<unserializable: symbol>",
      p: "<unserializable: Promise>",
      ok: "yes",
    });
    expect(encoded.lost.sort()).toEqual(["Promise", "function", "symbol"]);
  });

  it("copies class instances as data and reports the class", () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    const encoded = encodeValue({ p: new Point(1, 2) });
    expect(encoded.json).toEqual({ p: { x: 1, y: 2 } });
    expect(encoded.lost).toEqual(["Point"]);
  });

  it("stubs throwing getters and excessive depth", () => {
    const bad = Object.defineProperty({}, "boom", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    expect(encodeValue(bad).json).toEqual({ boom: "<unserializable: getter_threw>" });
    let deep: unknown = "leaf";
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(JSON.stringify(encodeValue(deep).json)).toContain("<unserializable: max_depth>");
  });
});
