// Graders API (docs/api/graders.md): list, create (an existing name is a 409 with the existing id, nothing
// overwritten), edit by id as a new version, versions and revert, config validated per kind with clear 400s,
// tenancy (another organization's id is 404).
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { getGraderVersions, listGraders, postGrader, postGraderRevert } from "./graders.http.ts";
import { ZGraderVersionsResponse, ZListGradersResponse, ZSaveGraderResponse } from "./graders.schemas.ts";

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

  const versions = async (id: string, apiKey = org.apiKey) =>
    call((req, ctx) => getGraderVersions(req, ctx!), { apiKey, path: `/api/sdk/graders/${id}/versions`, params: { id } });
  const revert = (id: string, version: number, apiKey = org.apiKey) =>
    call((req, ctx) => postGraderRevert(req, ctx!), { apiKey, body: { version }, path: `/api/sdk/graders/${id}/revert`, params: { id } });

  it("creates a grader with defaults at version 1; the same name again is a 409 naming the existing id, and nothing is overwritten", async () => {
    const first = await post(rule);
    expect(first.status).toBe(200);
    const created = ZSaveGraderResponse.parse(first.body);
    expect(created.created).toBe(true);
    expect(created.grader).toMatchObject({ ...rule, status: "active", live: true, version: 1, config: { target: null, check: { op: "contains", value: "42" } } });
    const again = await post({ ...rule, config: { check: { op: "noErrors" } }, live: false });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "conflict", existingId: created.grader.id });
    expect(again.body.error).toContain("already exists");
    const { graders } = ZListGradersResponse.parse((await call((req, ctx) => listGraders(req, ctx!), { apiKey: org.apiKey, path: "/api/sdk/graders?traceFunctionKey=answer" })).body);
    expect(graders.find((g) => g.id === created.grader.id)).toMatchObject({ live: true, version: 1, config: { check: { op: "contains", value: "42" } } });
  });

  it("keeps every version: an edit by id is a new version saying who changed what through REST; revert writes a version equal to the old one", async () => {
    const latency = { traceFunctionKey: "checkout", name: "fast enough", kind: "rule", config: { check: { op: "maxDurationMs", value: 140 } } };
    const { grader } = ZSaveGraderResponse.parse((await post(latency)).body);
    // The same name without an id never edits: a 409 with the id to edit.
    const blind = await post({ ...latency, config: { check: { op: "maxDurationMs", value: 99999 } } });
    expect(blind.status).toBe(409);
    expect(blind.body.existingId).toBe(grader.id);
    const edited = ZSaveGraderResponse.parse((await post({ ...latency, id: grader.id, config: { check: { op: "maxDurationMs", value: 99999 } } })).body);
    expect(edited).toMatchObject({ created: false, changed: true, previousVersion: 1, grader: { id: grader.id, version: 2, config: { check: { value: 99999 } } } });
    // An edit equal to the current version writes no version.
    const same = ZSaveGraderResponse.parse((await post({ ...latency, id: grader.id, config: { check: { op: "maxDurationMs", value: 99999 } } })).body);
    expect(same).toMatchObject({ changed: false, grader: { version: 2 } });

    const history = ZGraderVersionsResponse.parse((await versions(grader.id)).body);
    expect(history.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(history.versions[0]).toMatchObject({
      summary: "config.check.value: 140 → 99999",
      changes: [{ path: "config.check.value", before: "140", after: "99999" }],
      author: { userId: org.userId, name: org.email, via: "rest", tool: null },
      definition: { config: { check: { value: 99999 } } },
    });
    expect(history.versions[1]).toMatchObject({ summary: "Created", definition: { ...latency, status: "active", live: true, config: { target: null, check: { op: "maxDurationMs", value: 140 } } } });

    const reverted = await revert(grader.id, 1);
    expect(reverted.status).toBe(200);
    expect(ZSaveGraderResponse.parse(reverted.body)).toMatchObject({ changed: true, previousVersion: 2, grader: { version: 3, config: { check: { value: 140 } } } });
    const after = ZGraderVersionsResponse.parse((await versions(grader.id)).body);
    expect(after.versions[0]).toMatchObject({ version: 3, revertedFrom: 1, summary: "Reverted to version 1: config.check.value: 99999 → 140" });
    // The revert is itself undoable: version 2 is still there to go back to.
    expect(ZSaveGraderResponse.parse((await revert(grader.id, 2)).body).grader).toMatchObject({ version: 4, config: { check: { value: 99999 } } });
  });

  it("answers 404 for the versions or a revert of another organization's grader, and for an unknown version", async () => {
    const { grader } = ZSaveGraderResponse.parse((await post({ ...rule, traceFunctionKey: "private-fn", name: "private" })).body);
    expect((await versions(grader.id, other.apiKey)).status).toBe(404);
    expect((await revert(grader.id, 1, other.apiKey)).status).toBe(404);
    const unknown = await revert(grader.id, 7);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await versions("not-a-uuid")).status).toBe(400);
    const bad = await call((req, ctx) => postGraderRevert(req, ctx!), { apiKey: org.apiKey, body: { version: 0 }, path: "/x", params: { id: grader.id } });
    expect(bad.status).toBe(400);
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
    const { grader } = ZSaveGraderResponse.parse((await post(judge)).body);
    const edited = await post({ ...judge, id: grader.id, name: "judge v2", status: "archived" });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ created: false, grader: { id: grader.id, name: "judge v2", status: "archived", live: true, version: 2 } });
    const foreign = await post({ ...judge, id: grader.id }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await post({ ...judge, id: "6b0c5a8e-3a54-4a44-9d39-0a6a3a1c2f00" })).status).toBe(404);
    // Renaming onto another grader's name is refused rather than merging two graders.
    const clash = await post({ ...judge, id: grader.id, name: "mentions 42" });
    expect(clash.status).toBe(409);
    expect(ZGraderVersionsResponse.parse((await versions(grader.id)).body).versions).toHaveLength(2);
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

  it("concurrent creates of one (traceFunctionKey, name) make one grader; the others are refused with its id", async () => {
    const body = { ...rule, name: "raced" };
    const results = await Promise.all(Array.from({ length: 8 }, () => post(body)));
    const created = results.filter((r) => r.status === 200);
    expect(created).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.existingId === created[0].body.grader.id)).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it("concurrent edits of one grader number their versions one after the other", async () => {
    const { grader } = ZSaveGraderResponse.parse((await post({ ...rule, name: "edited at once" })).body);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => post({ ...rule, name: "edited at once", id: grader.id, config: { check: { op: "contains", value: `v${i}` } } })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const history = ZGraderVersionsResponse.parse((await versions(grader.id)).body);
    expect(history.versions.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("answers 401 without an API key", async () => {
    expect((await call((req, ctx) => listGraders(req, ctx!), { apiKey: null, path: "/api/sdk/graders" })).status).toBe(401);
  });
});
