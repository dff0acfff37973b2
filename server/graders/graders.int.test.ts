// Graders API (docs/api/graders.md): list, create, upsert by (traceFunctionKey, name), edit by id,
// config validated per kind with clear 400s, tenancy (another organization's id is 404).
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { listGraders, postGrader } from "./graders.http.ts";
import { ZListGradersResponse, ZUpsertGraderResponse } from "./graders.schemas.ts";

describe("graders API", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other org");
  });

  const rule = { traceFunctionKey: "answer", name: "mentions 42", kind: "rule", config: { check: { op: "contains", value: "42" } } };
  const post = (body: unknown, apiKey = org.apiKey) => call((req, ctx) => postGrader(req, ctx!), { apiKey, body, path: "/api/sdk/graders" });

  it("creates a grader with defaults, then upserts the same (traceFunctionKey, name)", async () => {
    const first = await post(rule);
    expect(first.status).toBe(200);
    const created = ZUpsertGraderResponse.parse(first.body);
    expect(created.created).toBe(true);
    expect(created.grader).toMatchObject({ ...rule, status: "active", live: true, config: { target: null, check: { op: "contains", value: "42" } } });
    const again = ZUpsertGraderResponse.parse((await post({ ...rule, config: { check: { op: "noErrors" } }, live: false })).body);
    expect(again.created).toBe(false);
    expect(again.grader.id).toBe(created.grader.id);
    expect(again.grader).toMatchObject({ live: false, status: "active", config: { check: { op: "noErrors" } } });
  });

  it("lists the graders of a trace function, only the caller's", async () => {
    await post({ ...rule, traceFunctionKey: "other-fn" });
    await post(rule, other.apiKey);
    const res = await call((req, ctx) => listGraders(req, ctx!), { apiKey: org.apiKey, path: "/api/sdk/graders?traceFunctionKey=answer" });
    const { graders } = ZListGradersResponse.parse(res.body);
    expect(graders.map((g) => [g.traceFunctionKey, g.name])).toEqual([["answer", "mentions 42"]]);
  });

  it("edits by id (rename, archive) and answers 404 for another organization's id or an unknown one", async () => {
    const judge = { traceFunctionKey: "answer", name: "judge", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: "Is it right?" } };
    const { grader } = ZUpsertGraderResponse.parse((await post(judge)).body);
    const edited = await post({ ...judge, id: grader.id, name: "judge v2", status: "archived" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ created: false, grader: { id: grader.id, name: "judge v2", status: "archived", live: true } });
    const foreign = await post({ ...judge, id: grader.id }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await post({ ...judge, id: "6b0c5a8e-3a54-4a44-9d39-0a6a3a1c2f00" })).status).toBe(404);
    // Renaming onto another grader's name is refused rather than merging two graders.
    const clash = await post({ ...judge, id: grader.id, name: "mentions 42" });
    expect(clash.status).toBe(409);
  });

  it.each([
    [{ ...rule, config: { check: { op: "matches", value: "([a-z" } } }, "config.check.value", "must be a valid regular expression"],
    [{ ...rule, config: { check: { op: "sounds-good" } } }, "config.check.op", ""],
    [{ ...rule, config: { target: { kind: "span" }, check: { op: "noErrors" } } }, "config.target", ""],
    [{ ...rule, config: undefined }, "config", ""],
    [{ ...rule, kind: "llm_judge" }, "config.model", ""],
    [{ ...rule, kind: "regex" }, "kind", ""],
    [{ ...rule, name: "" }, "name", ""],
    [{ ...rule, status: "deleted" }, "status", ""],
    [{ ...rule, id: "not-a-uuid" }, "id", ""],
  ])("answers 400 naming the bad field: %#", async (body, path, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    const issue = res.body.issues.find((i: { path: string }) => i.path.startsWith(path));
    expect(issue, JSON.stringify(res.body.issues)).toBeDefined();
    expect(issue.message).toContain(message);
  });

  it("concurrent creates of one (traceFunctionKey, name) make one grader", async () => {
    const body = { ...rule, name: "raced" };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(body)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.grader.id)).size).toBe(1);
    expect(results.filter((r) => r.body.created)).toHaveLength(1);
  });

  it("answers 401 without an API key", async () => {
    expect((await call((req, ctx) => listGraders(req, ctx!), { apiKey: null, path: "/api/sdk/graders" })).status).toBe(401);
  });
});
