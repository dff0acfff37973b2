import { describe, expect, it } from "vitest";
import { memberText } from "./member-text.ts";

describe("memberText", () => {
  it("returns the member's own characters, spacing and key order kept", () => {
    const text = ' {"source":"py", "rawSpan" :\n {"z": 1, "a" : [1, {"b":null}],"s":"x"} , "n": 2}';
    expect(memberText(text, "rawSpan")).toBe('{"z": 1, "a" : [1, {"b":null}],"s":"x"}');
  });

  it("is not fooled by quotes, backslashes and brackets inside strings", () => {
    const text = String.raw`{"a":"}\"{[","rawSpan":{"q":"say \"}\" \\","r":"\\\\","u":"\u00e9 ]"},"b":"\\"}`;
    expect(memberText(text, "rawSpan")).toBe(String.raw`{"q":"say \"}\" \\","r":"\\\\","u":"\u00e9 ]"}`);
    expect(memberText(text, "b")).toBe(String.raw`"\\"`);
  });

  it("reads scalars, arrays and strings as values", () => {
    const text = '{"n":-1.5e3,"t":true,"f":false,"z":null,"a":[[],{}],"s":"x"}';
    expect(memberText(text, "n")).toBe("-1.5e3");
    expect(memberText(text, "t")).toBe("true");
    expect(memberText(text, "z")).toBe("null");
    expect(memberText(text, "a")).toBe("[[],{}]");
    expect(memberText(text, "s")).toBe('"x"');
  });

  it("takes the last of repeated members and matches escaped names, as PostgreSQL's -> does", () => {
    expect(memberText('{"rawSpan":1,"x":{"rawSpan":3},"rawSpan":2}', "rawSpan")).toBe("2");
    expect(memberText(String.raw`{"raw\u0053pan":{"a":1}}`, "rawSpan")).toBe('{"a":1}');
  });

  it("finds nothing in other shapes", () => {
    expect(memberText("{}", "rawSpan")).toBeUndefined();
    expect(memberText('{"other":{"rawSpan":1}}', "rawSpan")).toBeUndefined();
    expect(memberText('[{"rawSpan":1}]', "rawSpan")).toBeUndefined();
    expect(memberText('"rawSpan"', "rawSpan")).toBeUndefined();
  });

  it("agrees with JSON.parse on generated documents", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
    const strings = ["", "plain", 'q"uote', "back\\slash", "}{][,:", "\u00e9\u4e2d\ud83d\ude00", "\n\t", "\\\"", "\\"];
    const value = (depth: number): unknown => {
      const kind = depth > 3 ? pick(["s", "n"]) : pick(["s", "n", "o", "a", "l"]);
      if (kind === "s") return pick(strings);
      if (kind === "n") return pick([0, -1, 3.25, 1e21, 42]);
      if (kind === "l") return pick([true, false, null]);
      if (kind === "a") return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [pick(strings) + i, value(depth + 1)]));
    };
    for (let n = 0; n < 500; n++) {
      const doc = { before: value(0), rawSpan: value(0), after: value(0) };
      const text = JSON.stringify(doc, null, pick([0, 1, "\t"]));
      const found = memberText(text, "rawSpan");
      expect(found).toBeDefined();
      expect(JSON.parse(found!)).toEqual(doc.rawSpan);
    }
  });
});
