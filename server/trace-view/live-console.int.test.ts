// The live console's reads: the changes poll (what moves it, that it stays one indexed statement) and the
// console list's default without replays (the trace list, and the labelling queue of a trace function).
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createTrace } from "../../test/factories.ts";
import { sql } from "../db/sql.ts";
import { updateTrace } from "../traces/traces.service.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { traceChangesStatement } from "./trace-view.queries.ts";

describe("live console", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Live");
    other = await createTestOrg(db(), "Elsewhere");
    caller = await signedInCaller(db(), org.email);
  });

  it("moves `newest` when a trace is created and `watched` when a shown trace changes, for this organization only", async () => {
    const shown = (await createTrace(db(), org.organizationId, { name: "shown", status: "pending" })).id;
    const first = await caller.traces.changes({ traceIds: [shown] });
    expect(first.newest).not.toBeNull();
    expect(first.watched).not.toBeNull();
    expect(await caller.traces.changes({ traceIds: [shown] })).toEqual(first);

    // Another organization's trace moves nothing here, and its id is not watched.
    const theirs = (await createTrace(db(), other.organizationId, { name: "theirs" })).id;
    expect(await caller.traces.changes({ traceIds: [shown] })).toEqual(first);
    expect((await caller.traces.changes({ traceIds: [theirs] })).watched).toBeNull();

    await updateTrace(db(), org.organizationId, shown, { setName: "renamed" });
    const renamed = await caller.traces.changes({ traceIds: [shown] });
    expect(renamed.newest).toBe(first.newest);
    expect(renamed.watched).not.toBe(first.watched);

    await createTrace(db(), org.organizationId, { name: "new one" });
    const added = await caller.traces.changes({ traceIds: [shown] });
    expect(added.newest).not.toBe(first.newest);
    expect(added.watched).toBe(renamed.watched);
  });

  it("answers the list and the trace page with the same `live` the poll answers, so an idle page reads nothing again", async () => {
    const page = await caller.traces.list({ limit: 25 });
    expect(await caller.traces.changes({ traceIds: page.traces.map((t) => t.id) })).toEqual(page.live);
    const one = page.traces[0]!.id;
    expect(await caller.traces.changes({ traceIds: [one] })).toMatchObject({ watched: (await caller.traces.get({ id: one })).live.watched });
  });

  it("stays one statement over two index reads however many traces the organization holds", async () => {
    // Enough traces, with statistics, that a scan would be the planner's choice if the indexes did not fit.
    await db().sql.query(sql`
      INSERT INTO traces (organization_id, id, source_trace_id, name, created_at, updated_at)
      SELECT ${org.organizationId}::uuid, gen_random_uuid(), 'bulk-' || i, 'bulk', now() - i * interval '1 second', now()
      FROM generate_series(1, 3000) AS i`);
    await db().sql.query(sql`ANALYZE traces`);
    const ids = (await caller.traces.list({ limit: 100 })).traces.map((t) => t.id);
    const plan = (await db().sql.query<{ "QUERY PLAN": string }>(sql`EXPLAIN ${traceChangesStatement(org.organizationId, ids)}`))
      .map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).not.toMatch(/Seq Scan on traces/);
    expect(plan).toMatch(/Index (Only )?Scan (Backward )?using traces_organization_id_created_at_idx/);
    expect(plan).toMatch(/Index Scan using traces_pkey/);
    await expect(caller.traces.changes({ traceIds: Array.from({ length: 101 }, () => crypto.randomUUID()) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("replays in the console's lists", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    org = await createTestOrg(db(), "Replays");
    ids.original = (await createTrace(db(), org.organizationId, { name: "original", traceFunctionKey: "fx", startedAt: new Date("2026-11-20T10:00:00Z") })).id;
    ids.replay = (await createTrace(db(), org.organizationId, {
      name: "replay", traceFunctionKey: "fx", startedAt: new Date("2026-11-20T10:01:00Z"), testRunId: crypto.randomUUID(), originalTraceId: ids.original,
    })).id;
  });

  it("leaves replays out of the default list, count and a function's labelling queue; a filter brings them back", async () => {
    const caller = await signedInCaller(db(), org.email);
    const names = (page: { traces: Array<{ name: string | null }> }) => page.traces.map((t) => t.name);
    const byDefault = await caller.traces.list({});
    expect(names(byDefault)).toEqual(["original"]);
    expect(byDefault.total).toBe(1);
    expect((await caller.traces.queue({ traceFunctionKey: "fx" })).ids).toEqual([ids.original]);

    const all = await caller.traces.list({ includeReplays: true });
    expect(names(all)).toEqual(["replay", "original"]);
    expect(all.total).toBe(2);
    expect((await caller.traces.queue({ traceFunctionKey: "fx", includeReplays: true })).ids).toEqual([ids.replay, ids.original]);
    // The kind filter "replay" shows only replays, with or without the flag.
    expect(names(await caller.traces.list({ kind: "replay" }))).toEqual(["replay"]);
  });
});
