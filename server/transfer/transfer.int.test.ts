// Export and import (docs/operations.md, "Export and import"): the round trip from one database into a fresh
// one (every trace, span document, label, grader label, assertion, dataset membership and grader equal),
// importing twice changes nothing, a malformed line is a 400 naming it with nothing written, an unknown filter
// is a 400, the OTLP/JSON form is ingested by the carrier door, and the admin CLI's commands write and read a file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestDatabase, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { setDb } from "../db.ts";
import type { Database } from "../db/client.ts";
import { sql, raw, uuidArray } from "../db/sql.ts";
import { postDataset, postDatasetGraders, postDatasetTraces } from "../datasets/datasets.http.ts";
import { postGrader } from "../graders/graders.http.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { postOtlpTraces } from "../ingest/otlp/otlp.http.ts";
import { completionPayload, spanPayload } from "../ingest/testing/payloads.ts";
import { postHumanLabels } from "../labels/labels.http.ts";
import { TRANSFER_COMMANDS } from "./admin-commands.ts";
import { createTrace } from "../../test/factories.ts";
import { EXPORT_PAGE_TRACES, exportLines } from "./export.service.ts";
import { getExport, postImport } from "./transfer.http.ts";
import { ZImportReport } from "./transfer.schemas.ts";

const TABLES = ["traces", "spans", "trace_labels", "grader_labels", "assertions", "otel_span_events", "datasets", "dataset_traces", "dataset_graders", "graders", "grader_versions"] as const;

/** Every row of the organization in the tables that travel, without the organization and the write token. */
async function snapshot(db: Database, organizationId: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = await db.sql.query<{ r: Record<string, unknown> }>(sql`
      SELECT to_jsonb(x) - 'organization_id' - 'final_xact' AS r FROM ${raw(table)} x WHERE x.organization_id = ${organizationId}::uuid`);
    out[table] = rows.map((r) => r.r).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return out;
}

const lines = (body: Buffer) => body.toString("utf8").split("\n").filter(Boolean);

/** GET /api/sdk/export read as the bytes it streams (JSON Lines are not one JSON body). */
async function getExportBytes(apiKey: string, query: string): Promise<{ status: number; raw: Buffer; body: any }> {
  const response = await getExport(new Request(`http://reprise.test/api/sdk/export?${query}`, { headers: { authorization: `Bearer ${apiKey}` } }), { params: Promise.resolve({}) });
  const raw = Buffer.from(await response.arrayBuffer());
  return { status: response.status, raw, body: response.status === 200 ? undefined : JSON.parse(raw.toString("utf8")) };
}

describe("export and import", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let fresh: Database;
  const traceIds: string[] = [];
  beforeAll(async () => {
    org = await createTestOrg(db(), "source");
    const api = org.apiKey;
    // More traces than one export page, each with a root and a child span and a completion.
    for (let i = 0; i < EXPORT_PAGE_TRACES + 3; i++) {
      const traceId = randomUUID();
      const root = randomUUID();
      traceIds.push(traceId);
      await call(postExternalSpan, { apiKey: api, body: spanPayload({ traceId, spanId: root, name: "root", input: { q: `question ${i}`, "ключ": [1, { deep: true }] }, output: `answer ${i}` }) });
      await call(postExternalSpan, { apiKey: api, body: spanPayload({ traceId, parentId: root, name: "child", final: i % 2 === 0 }) });
      await call(postExternalTrace, { apiKey: api, body: completionPayload({ traceId, expectedSpanCount: 2, externalTrace: { metadata: { user: `u${i}` } } }) });
    }
    const grader = await call(postGrader, { apiKey: api, body: { traceFunctionKey: "answer-question", name: "no errors", kind: "rule", config: { target: null, check: { op: "noErrors" } } } });
    expect(grader.status).toBe(200);
    const graderId = grader.body.grader.id as string;
    await db().sql.query(sql`
      INSERT INTO grader_labels (id, organization_id, trace_id, grader_id, label, label_reason, source, evaluated_at)
      VALUES (${randomUUID()}::uuid, ${org.organizationId}::uuid, ${traceIds[0]}::uuid, ${graderId}::uuid, true, 'fine', 'live_grader', now())`);
    expect((await call(postHumanLabels, { apiKey: api, body: { labels: [{ traceId: traceIds[0], label: false, annotation: "wrong answer" }, { traceId: traceIds[1], label: true, annotation: "good" }] } })).status).toBe(200);
    const dataset = await call(postDataset, { apiKey: api, body: { traceFunctionKey: "answer-question", name: "regressions" } });
    const datasetId = dataset.body.dataset.id as string;
    expect((await call(postDatasetTraces, { apiKey: api, params: { id: datasetId }, body: { traceIds: traceIds.slice(0, 3) } })).status).toBe(200);
    expect((await call(postDatasetGraders, { apiKey: api, params: { id: datasetId }, body: { graderIds: [graderId] } })).status).toBe(200);
    fresh = await createTestDatabase();
  });
  afterAll(async () => {
    await fresh?.close();
  });

  async function exportAll(query = "include=graders,datasets") {
    const res = await getExportBytes(org.apiKey, query);
    expect(res.status).toBe(200);
    return res;
  }

  it("round-trips into a fresh database: every row equal, and importing twice changes nothing", async () => {
    const res = await exportAll();
    const all = lines(res.raw);
    expect(all.filter((l) => JSON.parse(l).kind === "trace")).toHaveLength(traceIds.length);
    const freshOrg = await createTestOrg(fresh, "destination");
    setDb(fresh);
    try {
      const first = await call(postImport, { apiKey: freshOrg.apiKey, path: "/api/sdk/import?include=graders,datasets", body: res.raw, headers: { "content-type": "application/x-ndjson" } });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const report = ZImportReport.parse(first.body.report);
      expect(report.traces).toEqual({ inserted: traceIds.length, existing: 0 });
      expect(report.spans.inserted).toBe(traceIds.length * 2);
      expect(report.labels.inserted).toBe(2);
      expect(report.graderLabels.inserted).toBe(1);
      expect(report.datasetMembers.inserted).toBe(3);
      const after = await snapshot(fresh, freshOrg.organizationId);
      expect(after).toEqual(await snapshot(db(), org.organizationId));
      const again = await call(postImport, { apiKey: freshOrg.apiKey, path: "/api/sdk/import?include=graders,datasets", body: res.raw });
      expect(ZImportReport.parse(again.body.report).traces).toEqual({ inserted: 0, existing: traceIds.length });
      expect(await snapshot(fresh, freshOrg.organizationId)).toEqual(after);
    } finally {
      setDb(db());
    }
  });

  it("imports into another organization of the same database, without graders and datasets unless asked", async () => {
    const other = await createTestOrg(db(), "other");
    const res = await exportAll();
    const imported = await call(postImport, { apiKey: other.apiKey, body: res.raw });
    expect(imported.status).toBe(200);
    const mine = await snapshot(db(), other.organizationId);
    const source = await snapshot(db(), org.organizationId);
    expect(mine.traces).toEqual(source.traces);
    expect(mine.spans).toEqual(source.spans);
    expect(mine.trace_labels).toEqual(source.trace_labels);
    expect(mine.datasets).toEqual([]);
    expect(mine.graders).toEqual([]);
    // The export of another organization holds none of the first one's traces.
    const theirs = await getExportBytes((await createTestOrg(db(), "empty")).apiKey, "");
    expect(theirs.raw.length).toBe(0);
  });

  it("refuses a malformed line with its number and writes nothing", async () => {
    const target = await createTestOrg(db(), "malformed");
    const good = lines((await exportAll("status=completed")).raw);
    const broken = [good[0], good[1], `{"kind":"trace","trace":{"id":"not-a-uuid"}}`, good[2]].join("\n");
    const res = await call(postImport, { apiKey: target.apiKey, body: broken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.error).toMatch(/^line 3 /);
    const notJson = await call(postImport, { apiKey: target.apiKey, body: `${good[0]}\n{oops` });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toMatch(/^line 2 is not JSON/);
    expect(await db().prisma.trace.count({ where: { organizationId: target.organizationId } })).toBe(0);
  });

  it("selects by the trace list's filters and refuses an unknown one", async () => {
    const filtered = lines((await exportAll(`traceFunctionKey=nothing-like-this`)).raw);
    expect(filtered).toEqual([]);
    const unknown = await getExportBytes(org.apiKey, "colour=red");
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation_failed");
    const badInclude = await getExportBytes(org.apiKey, "include=secrets");
    expect(badInclude.status).toBe(400);
  });

  it("writes OTLP/JSON that the carrier door ingests into the same span documents", async () => {
    const target = await createTestOrg(db(), "otlp");
    const res = await exportAll("format=otlp");
    const requests = lines(res.raw);
    expect(requests).toHaveLength(traceIds.length);
    for (const request of requests.slice(0, 3)) expect((await call(postOtlpTraces, { apiKey: target.apiKey, body: request })).status).toBe(200);
    const spans = await db().prisma.span.findMany({ where: { organizationId: target.organizationId }, select: { sourceSpanId: true, rawSpan: true } });
    const original = await db().prisma.span.findMany({ where: { organizationId: org.organizationId }, select: { sourceSpanId: true, rawSpan: true } });
    const bySource = new Map(original.map((s) => [s.sourceSpanId, s.rawSpan]));
    expect(spans).toHaveLength(6);
    for (const s of spans) expect(s.rawSpan).toEqual(bySource.get(s.sourceSpanId));
  });

  it("reads the selection a page at a time, only as the lines are taken: never the whole selection at once", async () => {
    const paged = await createTestOrg(db(), "paged");
    const ids: string[] = [];
    for (let i = 0; i < EXPORT_PAGE_TRACES + 3; i++) ids.push((await createTrace(db(), paged.organizationId, { startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })).id);
    const lines = exportLines(db(), paged.organizationId, {}, { format: "jsonl", include: [] });
    const first = await lines.next();
    expect(JSON.parse(first.value as string).trace.id).toBe(ids.at(-1));
    // The oldest three, on the second page, go before that page is read: the export never sees them.
    await db().sql.query(sql`UPDATE traces SET dropped = true WHERE organization_id = ${paged.organizationId}::uuid AND id = ANY(${uuidArray(ids.slice(0, 3))})`);
    let rest = 0;
    for await (const _ of lines) rest++;
    expect(1 + rest).toBe(EXPORT_PAGE_TRACES);
  });

  it("exports to a file and imports it back with the admin CLI's commands", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-transfer-"));
    const file = path.join(dir, "export.jsonl");
    const out = await TRANSFER_COMMANDS.export.run(db(), { org: org.organizationId, out: file, status: "completed" });
    expect(out).toMatchObject({ file, format: "jsonl" });
    const target = await createTestOrg(db(), "cli");
    const first = (await TRANSFER_COMMANDS.import.run(db(), { org: target.organizationId, file })) as { report: { traces: { inserted: number } } };
    expect(first.report.traces.inserted).toBe(out.lines);
    const again = (await TRANSFER_COMMANDS.import.run(db(), { org: target.organizationId, file })) as { report: { traces: { inserted: number } } };
    expect(again.report.traces.inserted).toBe(0);
    await expect(TRANSFER_COMMANDS.import.run(db(), { org: randomUUID(), file })).rejects.toThrow(/not found/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
