import { describe, expect, it } from "vitest";
import { describeLock, isServiceAssignedName, lockReasonsOf } from "./lock-rules.ts";

describe("sim plan lock rules", () => {
  it("treats reprise.* and bitfab.* names as service-assigned", () => {
    expect(isServiceAssignedName("reprise.external_span")).toBe(true);
    expect(isServiceAssignedName("bitfab.external_span")).toBe(true);
    expect(isServiceAssignedName("reprise_external")).toBe(false);
  });

  it("lists every reason and describes them", () => {
    const reasons = lockReasonsOf({ name: "reprise.x", root: true, framework: true, imported: true });
    expect(reasons).toEqual(["root", "framework", "imported", "service_name"]);
    expect(lockReasonsOf({ name: "step", root: false, framework: false, imported: false })).toEqual([]);
    expect(describeLock(["root"])).toMatch(/locked: it is the root span/);
  });
});
