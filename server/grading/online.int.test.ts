// Online evaluation of live grading (docs/graders.md, "Online evaluation"): a grader's sampleRate grades that
// share of its function's completed traces, decided by the trace id (the same decision on every claim and in
// JavaScript), and its filter (metadata, tags, model, status) keeps the rest out. The settings are part of the
// grader's versioned config: a change is a new version and an audit event; bad settings are a 400.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { createSpan, createTrace } from "../../test/factories.ts";
import { sql, uuidArray } from "../db/sql.ts";
import { createGrader } from "../graders/graders.service.ts";
import { ZSaveGraderBody } from "../graders/graders.schemas.ts";
import { getGraderVersions, postGrader } from "../graders/graders.http.ts";
import { saveJudgeGrader } from "../graders/judge-grader.service.ts";
import { claimGradingTargets } from "./live.ts";
import { isSampled } from "./online-sampling.ts";

describe("online evaluation: live sampling and filter", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  const make = async (body: unknown) => (await createGrader(db(), org.organizationId, { userId: null, via: "rest" }, ZSaveGraderBody.parse(body))).grader.id;

  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  /** Writes the completion events of the traces, as the completion transaction does, and claims them. */
  async function claim(traceIds: string[], kind = "trace.completed") {
    await db().sql.query(sql`INSERT INTO trace_events (organization_id, trace_id, kind)
      SELECT ${org.organizationId}::uuid, id, ${kind} FROM unnest(${uuidArray(traceIds)}) AS id ON CONFLICT DO NOTHING`);
    return db().transaction((tx) => claimGradingTargets(tx, org.organizationId, 100_000, new Date()));
  }
  const gradedBy = (rows: { traceId: string; graderId: string | null }[], graderId: string) =>
    new Set(rows.filter((r) => r.graderId === graderId).map((r) => r.traceId));

  it("grades the sampled share of traces, the same traces on every claim and as the JavaScript hash says", async () => {
    const fn = "sampled-fn";
    const g30 = await make({ traceFunctionKey: fn, name: "thirty", kind: "rule", config: { check: { op: "noErrors" }, online: { sampleRate: 30 } } });
    const g0 = await make({ traceFunctionKey: fn, name: "none", kind: "rule", config: { check: { op: "noErrors" }, online: { sampleRate: 0 } } });
    const g100 = await make({ traceFunctionKey: fn, name: "all", kind: "rule", config: { check: { op: "noErrors" } } });
    const g1 = await make({ traceFunctionKey: fn, name: "fine", kind: "rule", config: { check: { op: "noErrors" }, online: { sampleRate: 2.5 } } });
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    await db().sql.query(sql`INSERT INTO traces (organization_id, id, source_trace_id, trace_function_key, status, started_at, completed_at)
      SELECT ${org.organizationId}::uuid, id, id::text, ${fn}, 'completed', now(), now() FROM unnest(${uuidArray(ids)}) AS id`);
    const first = await claim(ids);
    const sampled = gradedBy(first, g30);
    expect(sampled.size / ids.length).toBeGreaterThan(0.25);
    expect(sampled.size / ids.length).toBeLessThan(0.35);
    expect(sampled).toEqual(new Set(ids.filter((id) => isSampled(id, 30))));
    expect(gradedBy(first, g100).size).toBe(1000);
    expect(gradedBy(first, g0).size).toBe(0);
    const fine = gradedBy(first, g1);
    expect(fine).toEqual(new Set(ids.filter((id) => isSampled(id, 2.5))));
    expect(fine.size).toBeGreaterThan(5);
    expect(fine.size).toBeLessThan(50);
    // An amendment (or a retried dispatch) of the same traces decides the same: no re-roll.
    const again = await claim(ids, "trace.amended");
    expect(gradedBy(again, g30)).toEqual(sampled);
  });

  it("grades only traces that pass the filter: metadata, tags, model and status", async () => {
    const fn = "filtered-fn";
    const filter = { metadata: { plan: "pro", tier: 2 }, tags: ["vip"], model: "gpt-4o", status: "completed" };
    const g = await make({ traceFunctionKey: fn, name: "vip", kind: "rule", config: { check: { op: "noErrors" }, online: { filter } } });
    const trace = async (o: { metadata?: Record<string, unknown>; status?: "completed" | "failed"; model?: string }) => {
      const t = await createTrace(db(), org.organizationId, { traceFunctionKey: fn, status: o.status ?? "completed", metadata: o.metadata ?? {} });
      await createSpan(db(), org.organizationId, t.id, { name: "root", model: o.model ?? "gpt-4o" });
      return t.id;
    };
    const good = { plan: "pro", tier: 2, tags: ["eu", "vip"], other: "x" };
    const match = await trace({ metadata: good });
    const misses = [
      await trace({ metadata: { ...good, plan: "free" } }),
      await trace({ metadata: { ...good, tier: "2" } }),
      await trace({ metadata: { plan: "pro", tier: 2 } }),
      await trace({ metadata: { ...good, tags: ["eu"] } }),
      await trace({ metadata: { ...good, tags: "vip" } }),
      await trace({ metadata: good, model: "gpt-4o-mini" }),
      await trace({ metadata: good, status: "failed" }),
    ];
    const rows = await claim([match, ...misses]);
    expect(gradedBy(rows, g)).toEqual(new Set([match]));
  });

  it("the settings are a versioned, audited part of the config; bad settings are a 400", async () => {
    const body = { traceFunctionKey: "versioned-fn", name: "judge", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: "Polite?" } };
    const created = await call(postGrader, { apiKey: org.apiKey, path: "/api/sdk/graders", body });
    expect(created.status).toBe(200);
    const id = created.body.grader.id as string;
    const online = { sampleRate: 12.5, filter: { tags: ["vip"] } };
    const edited = await call(postGrader, { apiKey: org.apiKey, path: "/api/sdk/graders", body: { ...body, id, config: { ...body.config, online } } });
    expect(edited.status).toBe(200);
    expect(edited.body.grader.config.online).toEqual(online);
    const versions = await call((r, c) => getGraderVersions(r, c!), { apiKey: org.apiKey, params: { id }, path: `/api/sdk/graders/${id}/versions` });
    expect(versions.body.versions[0].summary).toContain("config.online.sampleRate: (none) → 12.5");
    const audit = await db().sql.query<{ kind: string }>(sql`SELECT kind FROM audit_events WHERE organization_id = ${org.organizationId}::uuid AND target_id = ${id} ORDER BY at`);
    expect(audit.map((a) => a.kind)).toEqual(["grader.created", "grader.updated"]);
    for (const bad of [{ sampleRate: 101 }, { sampleRate: -1 }, { sampleRate: 12.345 }, { sampleRate: "50" }, { filter: { colour: "red" } }, { filter: { tags: [] } }, { filter: { status: "pending" } }, { extra: 1 }]) {
      const res = await call(postGrader, { apiKey: org.apiKey, path: "/api/sdk/graders", body: { ...body, id, config: { ...body.config, online: bad } } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.body.issues[0].path)).toContain("online");
    }
    // An agent's edit of the judge's text (save_grader) keeps the settings.
    const agent = await saveJudgeGrader(db(), org.organizationId, { userId: org.userId, via: "mcp", tool: "save_grader" }, { graderId: id, evaluationFocus: "Politeness" });
    expect(agent.ok && agent.saved.grader.config.online).toEqual(online);
  });
});
