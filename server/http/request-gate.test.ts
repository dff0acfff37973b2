import { describe, expect, it } from "vitest";
import { gateProblem } from "./request-gate.ts";

describe("the request gate", () => {
  it("refuses methods no route answers, anywhere", () => {
    expect(gateProblem("TRACE", "/api/sdk/datasets")?.[0]).toBe(405);
    expect(gateProblem("PROPFIND", "/traces")?.[0]).toBe(405);
    expect(gateProblem("PATCH", "/api/sdk/datasets")).toBeNull();
  });

  it("refuses /api paths that are not UTF-8 or would be normalised onto another route", () => {
    for (const path of ["/api/sdk/traces/%FF%FE", "/api/sdk/traces/%2e%2e", "/api/sdk/traces/..", "/api/sdk/traces/.", "/api/sdk/traces/%00"]) {
      expect(gateProblem("GET", path)?.slice(0, 2), path).toEqual([400, "bad_request"]);
    }
    expect(gateProblem("GET", "/api/sdk/traces/2b6e0c1a-5d4f-4a51-9a8e-0c9b2f3d4e5f?x=%FF")).toBeNull();
    expect(gateProblem("GET", "/traces/%FF")).toBeNull();
  });
});
