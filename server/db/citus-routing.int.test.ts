// Single-shard statements on Citus (docs/operations.md, "Citus"): with the schema distributed, the ingestion write,
// the completion check and span reads each go to the one shard that holds the organization. Runs on the Citus stage
// of `npm test` (REPRISE_TEST_DB=citus); elsewhere there is nothing to route.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createMigratedPostgresDatabase, createTestOrg, onCitus, type TestOrg } from "../../test/harness.ts";
import { openDatabase, type Database } from "./client.ts";
import { migrate } from "./migrator.ts";
import { distributeOnCitus } from "./citus.ts";
import { sql, type Sql, type SqlClient, type TBatchStatement } from "./sql.ts";
import { setDb } from "../db.ts";
import { postExternalSpan, postExternalTrace } from "../ingest/ingest.http.ts";
import { postOtlpTraces } from "../ingest/otlp/otlp.http.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "../ingest/testing/payloads.ts";
import { getSpanRoute, getTraceSpanRoute } from "../spans/spans.http.ts";
import { newWriteStamp, upsertSpansStatement, upsertTracesStatement } from "../ingest/write/write.queries.ts";
import { countAndCompleteStatement } from "../ingest/write/write-complete.queries.ts";
import { insertCompletionEventsStatement } from "../ingest/completion/completion.queries.ts";
import { traceStubFromSpan } from "../ingest/write/trace-rows.ts";
import { canonicalId } from "../ids.ts";

describe.skipIf(!onCitus)("statements routed to one shard on Citus (run with REPRISE_TEST_DB=citus)", () => {
  let setup: Database;
  let app: Database;
  let drop: () => Promise<void>;
  let org: TestOrg;

  beforeAll(async () => {
    const created = await createMigratedPostgresDatabase();
    drop = created.drop;
    setup = await openDatabase({ url: created.url });
    await migrate(setup.sql);
    await distributeOnCitus(setup.sql);
    org = await createTestOrg(setup);
    // From here on, every connection refuses any statement that Citus splits into more than one task (one per
    // shard it touches): the app's own requests below succeed only if each of their statements is single-shard.
    const name = new URL(created.url).pathname.slice(1);
    await setup.sql.exec(`ALTER DATABASE ${name} SET citus.multi_task_query_log_level TO 'error'`);
    app = await openDatabase({ url: created.url });
    setDb(app);
  });
  afterAll(async () => {
    setDb(undefined);
    await app?.close();
    await setup?.close();
    await drop?.();
  });

  /** The distributed plan of a statement, as text. */
  const plan = async (statement: Sql) => (await app.sql.query<{ "QUERY PLAN": string }>(sql`EXPLAIN ${statement}`)).map((r) => r["QUERY PLAN"]).join("\n");
  /** A router plan: one task, no step run apart on the coordinator first. */
  const expectRouter = (text: string) => {
    expect(text).toContain("Task Count: 1");
    expect(text).not.toMatch(/Distributed Subplan|INSERT\/SELECT method|Task Count: [02-9]/);
  };

  it("a multi-shard statement is refused on these connections (the guard the next test relies on)", async () => {
    await expect(app.sql.query(sql`SELECT count(*) FROM spans`)).rejects.toThrow(/multi-task|task/i);
  });

  it("ingests spans and a completion, completes the trace once and reads its spans, every statement on one shard", async () => {
    const traceId = randomUUID();
    const spanIds = [randomUUID(), randomUUID()];
    for (const [i, spanId] of spanIds.entries()) {
      const res = await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, spanId, parentId: i === 0 ? null : spanIds[0] }) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const done = await call(postExternalTrace, { apiKey: org.apiKey, body: completionPayload({ traceId, expectedSpanCount: 2 }) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const id = canonicalId(org.organizationId, traceId);
    const trace = await app.prisma.trace.findUnique({ where: { organizationId_id: { organizationId: org.organizationId, id } }, select: { status: true, finalSpanCount: true } });
    const events = await app.prisma.traceEvent.count({ where: { organizationId: org.organizationId, traceId: id } });
    expect({ ...trace, events }).toEqual({ status: "completed", finalSpanCount: 2, events: 1 });

    const span = await call(getSpanRoute, { apiKey: org.apiKey, params: { id: canonicalId(org.organizationId, spanIds[1]) } });
    expect(span.status, JSON.stringify(span.body)).toBe(200);
    const inTrace = await call(getTraceSpanRoute, { apiKey: org.apiKey, params: { traceId }, path: `/?id=${spanIds[0]}` });
    expect(inTrace.status, JSON.stringify(inTrace.body)).toBe(200);
  });

  it("plans the traces upsert, the spans upsert, the count and completion check, and the outbox insert as router statements", async () => {
    const stamp = newWriteStamp();
    const traceId = randomUUID();
    const stub = traceStubFromSpan({ trace_id: traceId, source_trace_id: traceId, node_key: "k", source: "sdk", sdk_version: "1", started_at: null, test_run_id: null } as never);
    const spans = { rowsJson: JSON.stringify([{ id: randomUUID(), trace_id: traceId, is_final: true }]), rawJson: "[{}]" };
    expectRouter(await plan(upsertTracesStatement(org.organizationId, [stub, { ...stub, id: randomUUID() }], stamp).statement));
    expectRouter(await plan(upsertSpansStatement(org.organizationId, spans, [traceId], stamp).statement));
    expectRouter(await plan(countAndCompleteStatement(org.organizationId, [randomUUID(), randomUUID()], [traceId, randomUUID()], stamp).statement));
    expectRouter(await plan(insertCompletionEventsStatement(org.organizationId, [traceId, randomUUID()]).statement));
  });

  it("plans every statement of a request's write as a router statement: spans and a completion in one OTLP request", async () => {
    // The statements the ingestion write actually sends, caught on their way to the database, then explained.
    const sent: Sql[] = [];
    const { batch, transaction } = app.sql;
    app.sql.batch = (statements: TBatchStatement[]) => {
      sent.push(...statements.map((s) => s.statement));
      return batch.call(app.sql, statements);
    };
    app.sql.transaction = <T>(fn: (tx: SqlClient) => Promise<T>) =>
      transaction.call(app.sql, (tx: SqlClient) =>
        fn({ ...tx, query: (statement: Sql, options?: { prepareAs?: string }) => (sent.push(statement), tx.query(statement, options)) } as SqlClient),
      ) as Promise<T>;
    try {
      const traceId = randomUUID();
      const [root, child] = [randomUUID(), randomUUID()];
      const carriers = [
        { operation: "external_span", payload: spanPayload({ traceId, spanId: root }) },
        { operation: "external_span", payload: spanPayload({ traceId, spanId: child, parentId: root }) },
        { operation: "external_trace", payload: completionPayload({ traceId, expectedSpanCount: 2 }) },
      ];
      const res = await call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest(carriers.map(carrierSpanJson)) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = canonicalId(org.organizationId, traceId);
      const trace = await app.prisma.trace.findUnique({ where: { organizationId_id: { organizationId: org.organizationId, id } }, select: { status: true, finalSpanCount: true } });
      const events = await app.prisma.traceEvent.count({ where: { organizationId: org.organizationId, traceId: id } });
      expect({ ...trace, events }).toEqual({ status: "completed", finalSpanCount: 2, events: 1 });
    } finally {
      Object.assign(app.sql, { batch, transaction });
    }
    // The traces upsert, the spans upsert, the count of final spans with the completion check, the outbox insert.
    expect(sent.map((s) => s.text.trim().split(/\s+/)[0])).toEqual(["INSERT", "INSERT", "WITH", "INSERT"]);
    for (const statement of sent) expectRouter(await plan(statement));
  });
});
