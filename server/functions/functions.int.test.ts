// POST /api/sdk/functions and POST /api/sdk/functions/lookup against a real database.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { newId } from "../ids.ts";
import { createFunctionRoute, lookupFunctionRoute } from "./functions.http.ts";
import { ZFunctionCreateResponse, ZFunctionLookupResponse } from "./functions.schemas.ts";
import { getFunction } from "./functions.service.ts";

const save = (apiKey: string | null, body: unknown) => call(createFunctionRoute, { apiKey, body });
const lookup = (apiKey: string | null, body: unknown) => call(lookupFunctionRoute, { apiKey, body });
const providers = [{ provider: "openai", apiKeyEnv: "OPENAI_API_KEY", models: [{ model: "gpt-x", description: "fast" }] }];

describe("functions", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
  });

  it("creates a function with version 1 and finds it by name", async () => {
    const res = await save(a.apiKey, { name: "summarize", prompt: "v1 prompt", providers });
    expect(res.status).toBe(200);
    const body = ZFunctionCreateResponse.parse(res.body);
    expect(body).toMatchObject({ created: true, function: { name: "summarize", versionNumber: 1, prompt: "v1 prompt", providers } });
    const found = await lookup(a.apiKey, { name: "summarize" });
    expect(found.status).toBe(200);
    expect(ZFunctionLookupResponse.parse(found.body)).toEqual(body.function);
  });

  it("keeps the version when nothing changed and adds one when the prompt or the providers change", async () => {
    const first = ZFunctionCreateResponse.parse((await save(a.apiKey, { name: "classify", prompt: "p1", providers })).body);
    // Same prompt, same providers in another key order: no new version.
    const reordered = [{ models: [{ description: "fast", model: "gpt-x" }], apiKeyEnv: "OPENAI_API_KEY", provider: "openai" }];
    const same = ZFunctionCreateResponse.parse((await save(a.apiKey, { name: "classify", prompt: "p1", providers: reordered })).body);
    expect(same).toEqual({ created: false, function: first.function });
    // Changed prompt without providers: version 2 inherits the providers.
    const v2 = ZFunctionCreateResponse.parse((await save(a.apiKey, { name: "classify", prompt: "p2" })).body);
    expect(v2).toMatchObject({ created: false, function: { id: first.function.id, versionNumber: 2, prompt: "p2", providers } });
    expect(v2.function.versionId).not.toBe(first.function.versionId);
    const v3 = ZFunctionCreateResponse.parse((await save(a.apiKey, { name: "classify", prompt: "p2", providers: [] })).body);
    expect(v3.function).toMatchObject({ versionNumber: 3, providers: [] });
    expect(ZFunctionLookupResponse.parse((await lookup(a.apiKey, { name: "classify" })).body)).toEqual(v3.function);
  });

  it("numbers versions without gaps or collisions when saves race", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => save(a.apiKey, { name: "race", prompt: `prompt ${i}` })));
    for (const r of results) expect(r.status).toBe(200);
    const bodies = results.map((r) => ZFunctionCreateResponse.parse(r.body));
    expect(bodies.filter((x) => x.created)).toHaveLength(1);
    expect(new Set(bodies.map((x) => x.function.id)).size).toBe(1);
    expect(bodies.map((x) => x.function.versionNumber).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("answers {id: null} for an unknown name and keeps organizations apart", async () => {
    expect((await lookup(a.apiKey, { name: "missing" })).body).toEqual({ id: null });
    expect((await lookup(b.apiKey, { name: "summarize" })).body).toEqual({ id: null });
    const mine = ZFunctionCreateResponse.parse((await save(b.apiKey, { name: "summarize", prompt: "B's prompt" })).body);
    expect(mine).toMatchObject({ created: true, function: { versionNumber: 1, prompt: "B's prompt" } });
    const theirs = ZFunctionLookupResponse.parse((await lookup(a.apiKey, { name: "summarize" })).body);
    expect(theirs).toMatchObject({ prompt: "v1 prompt" });
    expect(theirs.id).not.toBe(mine.function.id);
  });

  it("getFunction finds the organization's function by id and 404s otherwise", async () => {
    const fn = ZFunctionLookupResponse.parse((await lookup(a.apiKey, { name: "summarize" })).body);
    expect((await getFunction(db(), a.organizationId, fn.id!)).name).toBe("summarize");
    await expect(getFunction(db(), b.organizationId, fn.id!)).rejects.toMatchObject({ code: "not_found" });
    await expect(getFunction(db(), a.organizationId, newId())).rejects.toMatchObject({ code: "not_found" });
    await expect(getFunction(db(), a.organizationId, "not-a-uuid")).rejects.toMatchObject({ code: "not_found" });
  });

  it.each([
    ["no name", { prompt: "p" }],
    ["an empty name", { name: "", prompt: "p" }],
    ["no prompt", { name: "x" }],
    ["a prompt that is not a string", { name: "x", prompt: 5 }],
    ["providers that are not a list", { name: "x", prompt: "p", providers: { provider: "openai" } }],
    ["a provider without a name", { name: "x", prompt: "p", providers: [{ apiKeyEnv: "K" }] }],
    ["a NUL in the prompt", { name: "x", prompt: "a\u0000b" }],
  ])("POST /functions answers 400 for %s and stores nothing", async (_n, body) => {
    const res = await save(a.apiKey, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", issues: expect.any(Array) });
    expect(await db().prisma.promptFunction.count({ where: { organizationId: a.organizationId, name: "x" } })).toBe(0);
  });

  it.each([["no name", {}], ["a non-string name", { name: 1 }], ["an empty name", { name: "" }]])(
    "POST /functions/lookup answers 400 for %s",
    async (_n, body) => {
      expect((await lookup(a.apiKey, body)).status).toBe(400);
    },
  );

  it("answers 401 without a key", async () => {
    expect((await save(null, { name: "n", prompt: "p" })).status).toBe(401);
    expect((await lookup(null, { name: "n" })).status).toBe(401);
  });
});
