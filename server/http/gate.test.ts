import { describe, expect, it } from "vitest";
import { gateProblem, routerStateProblem } from "./gate.ts";

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

  it("passes the router states Next.js sends and refuses what it could not parse", () => {
    const sent = (state: unknown) => ({ "next-router-state-tree": encodeURIComponent(JSON.stringify(state)) });
    expect(routerStateProblem({})).toBeNull();
    expect(routerStateProblem(sent(["", { children: ["traces", { children: ["__PAGE__", {}] }] }, null, null, true]))).toBeNull();
    expect(routerStateProblem(sent(["", { children: [["id", "abc", "d"], {}, "/traces/abc", "refetch"] }]))).toBeNull();
    for (const bad of ["%ZZ", "{}", encodeURIComponent("[1,{}]"), encodeURIComponent('["",{"children":"x"}]'), encodeURIComponent('["",{},null,"nope"]')]) {
      expect(routerStateProblem({ "next-router-state-tree": bad })?.slice(0, 2), bad).toEqual([400, "bad_request"]);
    }
    expect(routerStateProblem({ "next-router-state-tree": ["a", "b"] as unknown as string })?.[0]).toBe(400);
  });
});
