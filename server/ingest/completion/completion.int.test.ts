// Trace completion under concurrency (docs/api/ingestion.md, "Completion"): many requests racing to
// finish one trace complete it exactly once, with one trace.completed event and a consistent state.
// The race needs real concurrent transactions, so it runs on PostgreSQL (PGlite runs one at a time).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, onPostgres, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { sql } from "../../db/sql.ts";
import { postOtlpTraces } from "../otlp/otlp.http.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "../testing/payloads.ts";

describe("trace completion races", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  it.runIf(onPostgres)("20 concurrent requests racing to finish a trace complete it exactly once", async () => {
    const SPANS = 10;
    for (let round = 0; round < 5; round++) {
      const traceId = randomUUID();
      const rootId = randomUUID();
      const spanIds = [rootId, ...Array.from({ length: SPANS - 1 }, () => randomUUID())];
      const span = (i: number) => spanPayload({ traceId, spanId: spanIds[i], parentId: i === 0 ? null : rootId });
      // Each request carries three spans (overlapping with others, so retries and duplicates race too),
      // a start snapshot of another, and the completion signal; any of them may be the one that finishes.
      const requests = Array.from({ length: 20 }, (_, r) => {
        const carriers = [r, r + 1, r + 3].map((i) => ({ operation: "external_span", payload: span(i % SPANS) }));
        carriers.push({ operation: "external_span", payload: spanPayload({ traceId, spanId: spanIds[(r + 5) % SPANS], final: false }) });
        carriers.push({ operation: "external_trace", payload: completionPayload({ traceId, expectedSpanCount: SPANS }) });
        return call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest(carriers.map(carrierSpanJson)) });
      });
      const responses = await Promise.all(requests);
      for (const res of responses) {
        expect(res.status).toBe(200);
        expect(res.body.partialSuccess).toBeUndefined();
      }
      const events = await db().prisma.traceEvent.findMany({ where: { organizationId: org.organizationId, traceId } });
      expect(events).toHaveLength(1);
      const trace = await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: traceId } } });
      expect(trace).toMatchObject({ status: "completed", expectedSpanCount: SPANS, dropped: false });
      expect(trace.completedAt).toBeInstanceOf(Date);
      expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId, isFinal: true } })).toBe(SPANS);
    }
  });

  it.runIf(onPostgres)("retried and duplicated final spans racing each other count once: the trace waits for its last span", async () => {
    const SPANS = 6;
    const traceId = randomUUID();
    const rootId = randomUUID();
    const spanIds = [rootId, ...Array.from({ length: SPANS - 1 }, () => randomUUID())];
    const span = (i: number) => spanPayload({ traceId, spanId: spanIds[i], parentId: i === 0 ? null : rootId });
    // 24 concurrent requests, each with the same five spans (all but the last) and the signal: a count that
    // took a retried copy for a new span would reach six and complete the trace early.
    const requests = Array.from({ length: 24 }, (_, r) => {
      const carriers = [0, 1, 2, 3, 4].map((i) => ({ operation: "external_span", payload: span((i + r) % (SPANS - 1)) }));
      if (r % 3 === 0) carriers.push({ operation: "external_span", payload: spanPayload({ traceId, spanId: spanIds[r % (SPANS - 1)], final: false }) });
      carriers.push({ operation: "external_trace", payload: completionPayload({ traceId, expectedSpanCount: SPANS }) });
      return call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest(carriers.map(carrierSpanJson)) });
    });
    for (const res of await Promise.all(requests)) expect(res.status).toBe(200);
    const traceOf = () => db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: traceId } } });
    expect(await traceOf()).toMatchObject({ status: "pending", finalSpanCount: SPANS - 1 });

    const last = { operation: "external_span", payload: span(SPANS - 1) };
    await Promise.all([0, 1, 2].map(() => call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson(last)]) })));
    expect(await traceOf()).toMatchObject({ status: "completed", finalSpanCount: SPANS });
    expect(await db().prisma.traceEvent.count({ where: { organizationId: org.organizationId, traceId } })).toBe(1);
  });

  it.runIf(onPostgres)("a drop committed while a request waits for the trace's lock discards that request's spans", async () => {
    const traceId = randomUUID();
    const first = spanPayload({ traceId });
    expect((await call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson({ operation: "external_span", payload: first })]) })).status).toBe(200);
    let pending: ReturnType<typeof call> | undefined;
    // The drop holds the trace's row lock while the next request writes its span and waits for that lock.
    await db().sql.transaction(async (tx) => {
      await tx.query(sql`UPDATE traces SET dropped = true, dropped_at = now() WHERE organization_id = ${org.organizationId}::uuid AND id = ${traceId}::uuid`);
      await tx.query(sql`DELETE FROM spans WHERE organization_id = ${org.organizationId}::uuid AND trace_id = ${traceId}::uuid`);
      const late = { operation: "external_span", payload: spanPayload({ traceId, parentId: (first.rawSpan as { id: string }).id }) };
      pending = call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson(late), carrierSpanJson({ operation: "external_trace", payload: completionPayload({ traceId, expectedSpanCount: 2 }) })]) });
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    expect((await pending!).status).toBe(200);
    expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId } })).toBe(0);
    expect(await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: traceId } } })).toMatchObject({ dropped: true, status: "pending", finalSpanCount: 0 });
  });

  it("completes once when the last span and the signal arrive in either order across requests", async () => {
    for (const order of [["span", "signal"], ["signal", "span"]] as const) {
      const traceId = randomUUID();
      const first = spanPayload({ traceId });
      await call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson({ operation: "external_span", payload: first })]) });
      const last = { operation: "external_span", payload: spanPayload({ traceId, parentId: (first.rawSpan as { id: string }).id }) };
      const signal = { operation: "external_trace", payload: completionPayload({ traceId, expectedSpanCount: 2 }) };
      const sends = order.map((kind) => (kind === "span" ? last : signal));
      await Promise.all(sends.map((c) => call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([carrierSpanJson(c)]) })));
      expect(await db().prisma.traceEvent.count({ where: { organizationId: org.organizationId, traceId } })).toBe(1);
      expect((await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: traceId } } })).status).toBe("completed");
    }
  });
});
