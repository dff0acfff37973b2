// Datasets: upsert, read, list and paging (docs/api/datasets.md; docs/api.md, "Common rules").
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { newId } from "../ids.ts";
import { getDatasetById, listDatasets, postDataset } from "./datasets.http.ts";
import { ZGetDatasetResponse, ZListDatasetsResponse, ZUpsertDatasetResponse, type TDataset } from "./datasets.schemas.ts";

describe("datasets", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Org A");
    other = await createTestOrg(db(), "Org B");
  });

  const upsert = async (apiKey: string, body: unknown) => {
    const res = await call(postDataset, { apiKey, body, path: "/api/sdk/datasets" });
    return { status: res.status, body: res.status === 200 ? ZUpsertDatasetResponse.parse(res.body) : res.body };
  };
  const list = async (apiKey: string, query = "") => {
    const res = await call(listDatasets, { apiKey, path: `/api/sdk/datasets${query}` });
    return { status: res.status, body: res.status === 200 ? ZListDatasetsResponse.parse(res.body) : res.body };
  };

  it("creates, then updates by (traceFunctionKey, name); an omitted description is kept and \"\" clears it", async () => {
    const first = await upsert(org.apiKey, { traceFunctionKey: "fn-upsert", name: "golden", description: "v1" });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: true, dataset: { traceFunctionKey: "fn-upsert", name: "golden", description: "v1", traceCount: 0, graders: [] } });
    const id = first.body.dataset.id;

    const kept = await upsert(org.apiKey, { traceFunctionKey: "fn-upsert", name: "golden" });
    expect(kept.body).toMatchObject({ created: false, dataset: { id, description: "v1" } });
    expect(kept.body.dataset.updatedAt >= first.body.dataset.updatedAt).toBe(true);

    const changed = await upsert(org.apiKey, { traceFunctionKey: "fn-upsert", name: "golden", description: "v2" });
    expect(changed.body).toMatchObject({ created: false, dataset: { id, description: "v2" } });
    const cleared = await upsert(org.apiKey, { traceFunctionKey: "fn-upsert", name: "golden", description: "" });
    expect(cleared.body).toMatchObject({ created: false, dataset: { id, description: null } });

    // Same name under another trace function is another dataset.
    const sibling = await upsert(org.apiKey, { traceFunctionKey: "fn-upsert-2", name: "golden" });
    expect(sibling.body.created).toBe(true);
    expect(sibling.body.dataset.id).not.toBe(id);
  });

  it("10 concurrent upserts of one (traceFunctionKey, name) make one dataset with exactly one created: true", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upsert(org.apiKey, { traceFunctionKey: "fn-race", name: "race", description: `d${i}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.created).length).toBe(1);
    expect(new Set(results.map((r) => r.body.dataset.id)).size).toBe(1);
    expect(await db().prisma.dataset.count({ where: { organizationId: org.organizationId, traceFunctionKey: "fn-race" } })).toBe(1);
  });

  it("keeps organizations apart: the same (traceFunctionKey, name) in another organization is another dataset", async () => {
    const mine = await upsert(org.apiKey, { traceFunctionKey: "fn-orgs", name: "shared", description: "mine" });
    const theirs = await upsert(other.apiKey, { traceFunctionKey: "fn-orgs", name: "shared", description: "theirs" });
    expect(theirs.body.created).toBe(true);
    expect(theirs.body.dataset.id).not.toBe(mine.body.dataset.id);
    const again = await call(getDatasetById, { apiKey: org.apiKey, params: { id: mine.body.dataset.id } });
    expect(again.body.dataset.description).toBe("mine");
  });

  it("rejects bad upsert bodies with 400 and writes nothing", async () => {
    for (const body of [{}, { traceFunctionKey: "fn-bad" }, { traceFunctionKey: "fn-bad", name: "  " }, { traceFunctionKey: 5, name: "x" }, { traceFunctionKey: "fn-bad", name: "x", description: 3 }]) {
      const res = await upsert(org.apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", error: expect.any(String), issues: expect.any(Array) });
    }
    expect(await db().prisma.dataset.count({ where: { traceFunctionKey: "fn-bad" } })).toBe(0);
  });

  it("reads one dataset; another organization's id, an unknown id and a malformed id are 404", async () => {
    const { body } = await upsert(org.apiKey, { traceFunctionKey: "fn-get", name: "one" });
    const ok = await call(getDatasetById, { apiKey: org.apiKey, params: { id: body.dataset.id } });
    expect(ok.status).toBe(200);
    expect(ZGetDatasetResponse.parse(ok.body).dataset).toEqual(body.dataset);
    const upper = await call(getDatasetById, { apiKey: org.apiKey, params: { id: body.dataset.id.toUpperCase() } });
    expect(upper.body.dataset.id).toBe(body.dataset.id);
    for (const [apiKey, id] of [[other.apiKey, body.dataset.id], [org.apiKey, newId()], [org.apiKey, "nope"]]) {
      const res = await call(getDatasetById, { apiKey, params: { id } });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("lists only the caller's datasets, most recently updated first, filtered by trace function", async () => {
    await upsert(other.apiKey, { traceFunctionKey: "fn-list", name: "theirs" });
    await upsert(org.apiKey, { traceFunctionKey: "fn-list", name: "a" });
    await upsert(org.apiKey, { traceFunctionKey: "fn-list", name: "b" });
    await upsert(org.apiKey, { traceFunctionKey: "fn-list", name: "a", description: "touched" });
    const res = await list(org.apiKey, "?traceFunctionKey=fn-list");
    expect(res.status).toBe(200);
    expect(res.body.datasets.map((d: TDataset) => d.name)).toEqual(["a", "b"]);
    expect(res.body).not.toHaveProperty("nextCursor");
    const theirs = await list(other.apiKey, "?traceFunctionKey=fn-list");
    expect(theirs.body.datasets.map((d: TDataset) => d.name)).toEqual(["theirs"]);
  });

  it("breaks ties on updated_at by id ascending", async () => {
    const ids = [newId(), newId(), newId()];
    const at = new Date("2026-01-01T00:00:00.000Z");
    for (const id of ids) {
      await db().prisma.dataset.create({ data: { id, organizationId: org.organizationId, traceFunctionKey: "fn-tie", name: id, updatedAt: at } });
    }
    const res = await list(org.apiKey, "?traceFunctionKey=fn-tie&limit=2");
    const next = await list(org.apiKey, `?traceFunctionKey=fn-tie&limit=2&cursor=${res.body.nextCursor}`);
    expect([...res.body.datasets, ...next.body.datasets].map((d: TDataset) => d.id)).toEqual([...ids].sort());
  });

  it("pages 250 datasets by 100: 100, 100, 50, nextCursor null at the end, no duplicates", async () => {
    const key = "fn-page";
    for (let i = 0; i < 250; i += 50) {
      await db().prisma.dataset.createMany({
        data: Array.from({ length: 50 }, (_, j) => ({ id: newId(), organizationId: org.organizationId, traceFunctionKey: key, name: `ds-${i + j}` })),
      });
    }
    const pages = await readAllPages(org.apiKey, key, 100);
    expect(pages.map((p) => p.datasets.length)).toEqual([100, 100, 50]);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    const ids = pages.flatMap((p) => p.datasets.map((d) => d.id));
    expect(new Set(ids).size).toBe(250);
    // The pages together are the complete list, in the same order.
    const all = await list(org.apiKey, `?traceFunctionKey=${key}`);
    expect(ids).toEqual(all.body.datasets.map((d: TDataset) => d.id));
  });

  it("pages without duplicates or skips while datasets are inserted between page reads", async () => {
    const key = "fn-page-live";
    await db().prisma.dataset.createMany({
      data: Array.from({ length: 250 }, (_, i) => ({ id: newId(), organizationId: org.organizationId, traceFunctionKey: key, name: `start-${i}` })),
    });
    const atStart = new Set((await db().prisma.dataset.findMany({ where: { traceFunctionKey: key }, select: { id: true } })).map((r) => r.id));
    let inserted = 0;
    const pages = await readAllPages(org.apiKey, key, 100, async () => {
      for (let i = 0; i < 7; i++) await upsert(org.apiKey, { traceFunctionKey: key, name: `new-${inserted++}` });
    });
    const ids = pages.flatMap((p) => p.datasets.map((d) => d.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of atStart) expect(ids).toContain(id);
    expect(inserted).toBeGreaterThan(0);
  });

  it("a cursor alone pages by 100", async () => {
    const first = await list(org.apiKey, "?traceFunctionKey=fn-page&limit=1");
    const res = await list(org.apiKey, `?traceFunctionKey=fn-page&cursor=${first.body.nextCursor}`);
    expect(res.body.datasets.length).toBe(100);
    expect(res.body.hasMore).toBe(true);
  });

  it.each(["?limit=0", "?limit=101", "?limit=abc", "?limit=", "?cursor=garbage", `?cursor=${Buffer.from('{"sortKey":"x","id":"y"}').toString("base64url")}`])(
    "answers 400 for %s",
    async (query) => {
      const res = await list(org.apiKey, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    },
  );

  it("answers 401 without a key", async () => {
    expect((await call(listDatasets, { path: "/api/sdk/datasets" })).status).toBe(401);
    expect((await call(postDataset, { body: { traceFunctionKey: "k", name: "n" } })).status).toBe(401);
  });

  async function readAllPages(apiKey: string, key: string, limit: number, between?: () => Promise<void>) {
    const pages = [];
    let cursor: string | null | undefined;
    do {
      const res = await list(apiKey, `?traceFunctionKey=${key}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      pages.push(res.body);
      cursor = res.body.nextCursor;
      if (cursor && between) await between();
    } while (cursor);
    return pages as { datasets: TDataset[]; nextCursor: string | null; hasMore: boolean }[];
  }
});
