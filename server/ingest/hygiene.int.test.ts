// Data hygiene: `__proto__` keys, NUL characters, unpaired surrogates, deep nesting, 8 MB
// strings and values PostgreSQL refuses never cause a 5xx and never lose the rest of the batch; and a
// database that cannot be reached gives 503 + Retry-After on every ingestion door.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, onCitus, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { openDatabase } from "../db/client.ts";
import { setDb } from "../db.ts";
import { encodeExportRequest, decodeStatus } from "../../proto/otlp.ts";
import { postExternalSpan, postExternalTrace, postFunctionTrace } from "./ingest.http.ts";
import { postOtlpTraces } from "./otlp/otlp.http.ts";
import { carrierSpanJson, completionPayload, otlpJsonRequest, spanPayload } from "./testing/payloads.ts";
import { MAX_KEY_LENGTH, MAX_LABEL_LENGTH } from "./write/span-fields.ts";

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { d: value };
  return value;
};

describe("ingestion data hygiene", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });
  const rawSpanOf = async (traceId: string) =>
    (await db().prisma.span.findFirstOrThrow({ where: { organizationId: org.organizationId, traceId } })).rawSpan as Record<string, any>;
  const otlp = async (carriers: Array<{ operation: string; payload: unknown }>) => {
    const res = await call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest(carriers.map(carrierSpanJson)) });
    expect(res.status).toBe(200);
    return res.body;
  };

  it("stores __proto__ keys as ordinary keys, in spans and trace metadata", async () => {
    const traceId = randomUUID();
    const span = JSON.parse(JSON.stringify(spanPayload({ traceId })).replace('"input":', '"input":{"__proto__":{"polluted":true},"ok":1},"x":'));
    const completion = JSON.parse(JSON.stringify(completionPayload({ traceId })).replace('"externalTrace":{', '"externalTrace":{"metadata":{"__proto__":{"a":1},"b":2},'));
    const body = await otlp([{ operation: "external_span", payload: span }, { operation: "external_trace", payload: completion }]);
    expect(body.partialSuccess).toBeUndefined();
    const input = (await rawSpanOf(traceId)).span_data.input;
    // jsonb orders keys by length; what matters is that __proto__ is an own, ordinary key.
    expect(Object.keys(input).sort()).toEqual(["__proto__", "ok"]);
    expect(Object.getOwnPropertyDescriptor(input, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    const trace = await db().prisma.trace.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.organizationId, id: traceId } } });
    expect(Object.getOwnPropertyDescriptor(trace.metadata, "__proto__")?.value).toEqual({ a: 1 });
    expect(trace.metadata).toHaveProperty("b", 2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("replaces NUL characters and unpaired surrogates with U+FFFD and says so in errors", async () => {
    const traceId = randomUUID();
    const text = JSON.stringify(spanPayload({ traceId, name: "na\u0000me", input: ["a\u0000b", "\ud800"] }));
    expect(text).toContain("\\u0000");
    await otlp([{ operation: "external_span", payload: text }]);
    const span = await db().prisma.span.findFirstOrThrow({ where: { organizationId: org.organizationId, traceId } });
    expect(span.name).toBe("na\uFFFDme");
    expect((span.rawSpan as any).span_data.input).toEqual(["a\uFFFDb", "\uFFFD"]);
    expect(span.errors).toEqual([
      { source: "server", step: "sanitize", error: expect.stringMatching(/replaced 2 NUL character\(s\) and 1 unpaired UTF-16 surrogate\(s\) with U\+FFFD/) },
    ]);
  });

  it("stores 200-level nesting intact and rejects only the carrier nested too deep to store", async () => {
    const [ok, deep, plain] = [randomUUID(), randomUUID(), randomUUID()];
    const deepText = JSON.stringify(spanPayload({ traceId: deep })).replace('"input":', `"input":${"[".repeat(20_000)}${"]".repeat(20_000)},"x":`);
    const body = await otlp([
      { operation: "external_span", payload: spanPayload({ traceId: ok, input: nested(200, "leaf") }) },
      { operation: "external_span", payload: deepText },
      { operation: "external_span", payload: spanPayload({ traceId: plain }) },
    ]);
    expect(body.partialSuccess).toMatchObject({ rejectedSpans: 1, errorMessage: expect.stringMatching(/spans\[1\]: payload cannot be stored: JSON nested deeper than 1000 levels/) });
    expect((await rawSpanOf(ok)).span_data.input).toEqual(nested(200, "leaf"));
    await rawSpanOf(plain);
    expect(await db().prisma.span.count({ where: { organizationId: org.organizationId, traceId: deep } })).toBe(0);
  });

  it("stores an almost-8 MB string and answers 413, not 5xx, past the limit", async () => {
    const traceId = randomUUID();
    const base = JSON.stringify(spanPayload({ traceId, input: [""] })).length;
    const big = "x".repeat(8_000_000 - base);
    const ok = await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, input: [big] }) });
    expect(ok.status).toBe(200);
    expect((await rawSpanOf(traceId)).span_data.input[0]).toHaveLength(big.length);
    const over = await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, input: [`${big}y`] }) });
    expect(over.status).toBe(413);
  });

  /**
   * Drops a trace, then sends `droppedSpans` spans of it and one of a live trace, each `size` characters, in
   * one request (the live one first or last); checks that none of the dropped trace's spans is stored or
   * counted as final, and the live one is.
   */
  async function sendToDroppedTrace(size: number, droppedSpans: number, liveFirst: boolean) {
    const dropped = randomUUID();
    const live = randomUUID();
    await call(postExternalTrace, { apiKey: org.apiKey, body: completionPayload({ traceId: dropped, dropped: true }) });
    const carrier = (traceId: string) => ({ operation: "external_span", payload: spanPayload({ traceId, input: ["x".repeat(size)] }) });
    const toDropped = Array.from({ length: droppedSpans }, () => carrier(dropped));
    const carriers = liveFirst ? [carrier(live), ...toDropped] : [...toDropped, carrier(live)];
    expect(await otlp(carriers)).toMatchObject({ traceIds: { [dropped]: dropped, [live]: live } });
    const count = (traceId: string) => db().prisma.span.count({ where: { organizationId: org.organizationId, traceId } });
    expect(await count(dropped)).toBe(0);
    expect(await count(live)).toBe(1);
    // Later statements discard them too, rather than writing rows for completion's scrub to delete: the
    // dropped trace counts no final span.
    const finals = (id: string) => db().prisma.trace.findFirstOrThrow({ where: { organizationId: org.organizationId, id }, select: { finalSpanCount: true } });
    expect(await finals(dropped)).toEqual({ finalSpanCount: 0 });
    expect(await finals(live)).toEqual({ finalSpanCount: 1 });
  }

  it("discards a dropped trace's spans in every statement of a request too large for one", async () => {
    // Six ~700 KB spans: more than a batch's worth (MAX_BATCH_JSON_BYTES) and more than one statement's on
    // either database, so spans of the dropped trace land both in the statement that upserts the traces and
    // in later ones, written one at a time.
    await sendToDroppedTrace(700_000, 5, false);
  });

  it("discards a dropped trace's spans in each later statement of a request written as one batch", async () => {
    // Three ~600 KB spans: under a batch's size (MAX_BATCH_JSON_BYTES), so written as one batch, and on PGlite
    // one statement each (MAX_PGLITE_BATCH_STATEMENT_JSON_BYTES): a dropped trace's span reaches a later one.
    await sendToDroppedTrace(600_000, 2, true);
  });

  // A request whose spans take several statements (runs) completes its traces in its last one, once every run is
  // written: a trace that completes on its signal alone (no expected count) whose root, recording an error, sorts
  // after its child into a later run fails, with one event. 1.5 MB spans: over a batch's size, one statement at a time,
  // one span a run on either database; 700 KB spans: one batch, one span a run on PGlite.
  it.each([1_500_000, 700_000])("completes a trace whose spans take several statements after the last of them (%d-character spans)", async (size) => {
    const traceId = randomUUID();
    const [child, root] = [randomUUID(), randomUUID()].sort();
    await otlp([
      { operation: "external_span", payload: spanPayload({ traceId, spanId: child, parentId: root, input: ["x".repeat(size)] }) },
      { operation: "external_span", payload: spanPayload({ traceId, spanId: root, error: "the root failed", input: ["y".repeat(size)] }) },
      { operation: "external_trace", payload: completionPayload({ traceId }) },
    ]);
    const trace = await db().prisma.trace.findFirstOrThrow({ where: { organizationId: org.organizationId, id: traceId }, select: { status: true, finalSpanCount: true } });
    const events = await db().prisma.traceEvent.count({ where: { organizationId: org.organizationId, traceId } });
    expect({ ...trace, events }).toEqual({ status: "failed", finalSpanCount: 2, events: 1 });
  });

  it("truncates over-long names (index keys) and records it", async () => {
    const traceId = randomUUID();
    await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId, name: "n".repeat(100_000), traceFunctionKey: "k".repeat(5000) }) });
    const span = await db().prisma.span.findFirstOrThrow({ where: { organizationId: org.organizationId, traceId } });
    expect(span.name).toHaveLength(MAX_KEY_LENGTH);
    expect(span.nodeKey).toHaveLength(MAX_KEY_LENGTH);
    expect(span.errors).toEqual([
      { source: "server", step: "truncate", error: expect.stringContaining("span name") },
      { source: "server", step: "truncate", error: expect.stringContaining("trace function key") },
    ]);
  });

  it("stores a span whose name, model, instrumentation and source are long and incompressible (the trace index carries them)", async () => {
    // Random CJK characters: three UTF-8 bytes each, which no compression shrinks; uncut, they exceed an index row.
    const noise = (n: number) => Array.from({ length: n }, () => String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 0x5000))).join("");
    const traceId = randomUUID();
    const body = spanPayload({ traceId, name: noise(2000), contexts: [{ model: noise(2000), inputTokens: 3 }] });
    (body.rawSpan as Record<string, any>).span_origin.instrumentation.name = noise(2000);
    body.source = noise(2000);
    const res = await call(postExternalSpan, { apiKey: org.apiKey, body });
    expect(res.status).toBe(200);
    const span = await db().prisma.span.findFirstOrThrow({ where: { organizationId: org.organizationId, traceId } });
    expect(span.name).toHaveLength(MAX_KEY_LENGTH);
    expect([span.model, span.instrumentation, span.source].map((v) => v?.length)).toEqual([MAX_LABEL_LENGTH, MAX_LABEL_LENGTH, MAX_LABEL_LENGTH]);
    expect((span.errors as Array<{ error: string }>).map((e) => e.error)).toEqual(
      expect.arrayContaining([expect.stringContaining("model"), expect.stringContaining("instrumentation name"), expect.stringContaining("source")]),
    );
    expect((span.rawSpan as Record<string, any>).span_data.contexts[0].model).toHaveLength(2000);
  });

  // Skipped on Citus: the refusal is made by a trigger, and Citus refuses triggers on distributed tables (spans).
  it.skipIf(onCitus)("rejects only the carriers carrying a value the database refuses, and stores the rest", async () => {
    // A real refusal by the database: a trigger raising a data exception for one span name.
    await db().sql.exec(`
      CREATE FUNCTION refuse_poison() RETURNS trigger AS $$
      BEGIN
        IF NEW.name = 'poison' THEN RAISE EXCEPTION 'value refused' USING ERRCODE = '22023'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_poison BEFORE INSERT ON spans FOR EACH ROW EXECUTE FUNCTION refuse_poison();`);
    try {
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      const body = await otlp([
        { operation: "external_span", payload: spanPayload({ traceId: ids[0] }) },
        { operation: "external_span", payload: spanPayload({ traceId: ids[1], name: "poison" }) },
        { operation: "external_trace", payload: completionPayload({ traceId: ids[2] }) },
      ]);
      expect(body.partialSuccess).toMatchObject({ rejectedSpans: 1, errorMessage: expect.stringContaining("spans[1]: payload cannot be stored: value refused") });
      expect(Object.keys(body.traceIds).sort()).toEqual([ids[0], ids[2]].sort());
      await rawSpanOf(ids[0]);
      expect(await db().prisma.trace.findUnique({ where: { organizationId_id: { organizationId: org.organizationId, id: ids[2] } } })).toMatchObject({ status: "completed" });
      const rest = await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId: randomUUID(), name: "poison" }) });
      expect(rest.status).toBe(400);
      expect(rest.body.error).toContain("value refused");
    } finally {
      await db().sql.exec("DROP TRIGGER refuse_poison ON spans; DROP FUNCTION refuse_poison();");
    }
  });

  describe("when the database is unreachable", () => {
    let dead: Awaited<ReturnType<typeof openDatabase>>;
    beforeAll(async () => {
      // Nothing listens on port 1: connections are refused, as when PostgreSQL is down.
      dead = await openDatabase({ url: "postgresql://postgres@127.0.0.1:1/reprise", maxConnections: 1 });
      setDb(dead);
    });
    afterAll(async () => {
      setDb(db());
      await dead.close().catch(() => undefined);
    });

    it("answers 503 with Retry-After on every ingestion door, in the OTLP request's encoding", async () => {
      const doors = [
        call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId: randomUUID() }) }),
        call(postExternalTrace, { apiKey: org.apiKey, body: completionPayload({ traceId: randomUUID() }) }),
        call(postFunctionTrace, { apiKey: org.apiKey, body: { result: "x" }, params: { functionId: randomUUID() } }),
        call(postOtlpTraces, { apiKey: org.apiKey, body: otlpJsonRequest([]) }),
      ];
      for (const res of await Promise.all(doors)) {
        expect(res.status).toBe(503);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(res.body.code).toBe("service_unavailable");
      }
      const proto = await call(postOtlpTraces, {
        apiKey: org.apiKey,
        body: Buffer.from(encodeExportRequest({ resourceSpans: [] })),
        headers: { "content-type": "application/x-protobuf" },
      });
      expect(proto.status).toBe(503);
      expect(proto.headers.get("retry-after")).toBeTruthy();
      expect(decodeStatus(proto.raw).code).toBe(14);
    });
  });
});
