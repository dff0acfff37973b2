// GET /api/sdk/traces filters added for the console: label state (unlabeled, pass, fail,
// validated), kind (captured, seeded, replay) and a startedAt range, combined with the older filters and
// cursor paging; the same filters through the console's traces.list. Verdicts are written through the
// real label endpoints.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createTrace } from "../../test/factories.ts";
import { postAgentLabels, postHumanLabels } from "../labels/labels.http.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { listTracesRoute } from "./traces.http.ts";
import { ZTraceListResponse } from "./traces.schemas.ts";

describe("trace list filters", () => {
  const db = useTestDatabase();
  let a: TestOrg;
  let b: TestOrg;
  const ids: Record<string, string> = {};
  const t0 = Date.parse("2026-11-20T10:00:00.000Z");
  const minute = (n: number) => new Date(t0 + n * 60_000);

  const list = async (query: string, org = a) => {
    const res = await call(listTracesRoute, { apiKey: org.apiKey, path: `/api/sdk/traces?${query}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const names = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
    return { ...ZTraceListResponse.parse(res.body), names: ZTraceListResponse.parse(res.body).traces.map((t) => names.get(t.id) ?? t.id) };
  };
  const post = async (handler: typeof postAgentLabels, body: object) => expect((await call(handler, { apiKey: a.apiKey, body })).status).toBe(200);

  beforeAll(async () => {
    a = await createTestOrg(db(), "A");
    b = await createTestOrg(db(), "B");
    const make = async (name: string, n: number, o: Parameters<typeof createTrace>[2] = {}) => {
      ids[name] = (await createTrace(db(), a.organizationId, { name, traceFunctionKey: "fx", startedAt: minute(n), ...o })).id;
    };
    await make("humanPass", 0);
    await make("agentFail", 1);
    await make("approvedAgentPass", 2);
    await make("seeded", 3, { ingestionType: "seeded" });
    await make("replay", 4, { testRunId: crypto.randomUUID(), originalTraceId: undefined });
    await make("skipped", 5);
    await make("cleared", 6, { ingestionType: "seeded" });
    await make("noStart", 0, { startedAt: null });
    ids.theirs = (await createTrace(db(), b.organizationId, { name: "theirs", traceFunctionKey: "fx", startedAt: minute(0) })).id;

    await post(postHumanLabels, { labels: [{ traceId: ids.humanPass, label: true }, { traceId: ids.cleared, label: true }] });
    await post(postAgentLabels, { labels: [{ traceId: ids.agentFail, label: false }, { traceId: ids.approvedAgentPass, label: true }, { traceId: ids.skipped, skip: true }] });
    await post(postAgentLabels, { labels: [{ traceId: ids.cleared, archive: true }] });
    const caller = await signedInCaller(db(), a.email);
    await caller.labels.review({ traceId: ids.approvedAgentPass, approve: true });
    expect((await call(postHumanLabels, { apiKey: b.apiKey, body: { labels: [{ traceId: ids.theirs, label: true }] } })).status).toBe(200);
  });

  it("keeps the unfiltered list as before: every non-dropped trace, newest first", async () => {
    expect((await list("")).names).toEqual(["cleared", "skipped", "replay", "seeded", "approvedAgentPass", "agentFail", "humanPass", "noStart"]);
  });

  it("filters by the current whole-trace verdict; validated means approved (human, or an approved agent verdict)", async () => {
    expect((await list("labelState=pass")).names).toEqual(["approvedAgentPass", "humanPass"]);
    expect((await list("labelState=fail")).names).toEqual(["agentFail"]);
    expect((await list("labelState=validated")).names).toEqual(["approvedAgentPass", "humanPass"]);
    // A skipped verdict is a state of its own; a cleared one is gone.
    expect((await list("labelState=unlabeled")).names).toEqual(["cleared", "replay", "seeded", "noStart"]);
    expect((await list("labelState=pass", b)).names).toEqual(["theirs"]);
  });

  it("filters by kind: captured and seeded exclude replays, replay is any trace of an experiment", async () => {
    expect((await list("kind=replay")).names).toEqual(["replay"]);
    expect((await list("kind=seeded")).names).toEqual(["cleared", "seeded"]);
    expect((await list("kind=captured")).names).toEqual(["skipped", "approvedAgentPass", "agentFail", "humanPass", "noStart"]);
  });

  it("filters by a startedAt range (from inclusive, to exclusive; traces without a start are outside any range)", async () => {
    const from = encodeURIComponent(minute(2).toISOString());
    const to = encodeURIComponent(minute(5).toISOString());
    expect((await list(`startedFrom=${from}&startedTo=${to}`)).names).toEqual(["replay", "seeded", "approvedAgentPass"]);
    expect((await list(`startedTo=${encodeURIComponent("2026-11-20T11:01:30+01:00")}`)).names).toEqual(["agentFail", "humanPass"]);
  });

  it("combines filters and pages them with the cursor", async () => {
    const first = await list("kind=captured&labelState=pass&limit=1");
    expect(first.names).toEqual(["approvedAgentPass"]);
    const second = await list(`kind=captured&labelState=pass&limit=1&cursor=${first.nextCursor}`);
    expect(second.names).toEqual(["humanPass"]);
    expect(second.hasMore).toBe(false);
  });

  it("answers 400 naming the parameter for an unknown state or kind and a date-time without a time zone", async () => {
    for (const [query, path] of [["labelState=maybe", "labelState"], ["kind=imported", "kind"], ["startedFrom=2026-11-20T10:00:00", "startedFrom"], ["startedTo=yesterday", "startedTo"]]) {
      const res = await call(listTracesRoute, { apiKey: a.apiKey, path: `/api/sdk/traces?${query}` });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", issues: [expect.objectContaining({ path })] });
    }
  });

  it("offers the same filters to the console's trace list", async () => {
    const caller = await signedInCaller(db(), a.email);
    const page = await caller.traces.list({ labelState: "validated", kind: "captured", startedFrom: minute(1).toISOString() });
    expect(page.traces.map((t) => t.id)).toEqual([ids.approvedAgentPass]);
    expect(page.traces[0]!.verdict).toMatchObject({ label: true, labelSource: "agent", approved: true });
    await expect(caller.traces.list({ labelState: "nope" as "pass" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
