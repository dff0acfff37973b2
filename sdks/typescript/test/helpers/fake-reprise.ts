import { carriersOf, type FakeResponse, type RecordedRequest } from "./fake-server.js";

type Payload = Record<string, any>;

/** An original trace the fake server can hand out for replay. */
export interface FakeOriginal {
  traceId: string;
  spanId: string;
  input: unknown;
  input_meta?: unknown;
  /** The original's span tree as `replay/spanTree` returns it (none: 404). */
  tree?: unknown;
}

/**
 * A small in-memory stand-in for Reprise's replay endpoints (start, externalSpans, status, complete) and the OTLP
 * route, following docs/sdk-transport.md ("Responses") and docs/replay.md. Enough to drive the replay runner end to
 * end over real HTTP.
 */
export function fakeReprise(originals: FakeOriginal[]) {
  const spans = new Map<string, Payload[]>();
  const completions = new Map<string, Payload>();
  const calls: string[] = [];
  const state = { statusConfirms: true, statusBodies: [] as Payload[], startBody: undefined as Payload | undefined };

  const persisted = (traceId: string, expected: number) =>
    completions.has(traceId) && new Set((spans.get(traceId) ?? []).map((s) => s.rawSpan.id)).size >= expected;

  const handler = (request: RecordedRequest): FakeResponse => {
    const path = request.path.split("?")[0] ?? "";
    calls.push(`${request.method} ${path}`);
    if (path === "/api/sdk/otel/v1/traces") return ingest(request);
    if (path === "/api/sdk/replay/start") {
      state.startBody = request.json() as Payload;
      return {
        body: {
          testRunId: "run-1",
          experimentId: "run-1",
          testRunUrl: "/experiments/run-1",
          experimentUrl: "/experiments/run-1",
          items: originals.map((o) => ({
            externalSpanId: o.spanId,
            originalSpanId: o.spanId,
            sourceSpanId: o.spanId,
            originalTraceId: o.traceId,
            sourceTraceId: o.traceId,
            originalDurationMs: 120,
            durationMs: 120,
            originalTokens: { input: 10, output: 5, cached: 0, total: 15 },
            tokens: { input: 10, output: 5, cached: 0, total: 15 },
            originalModel: "m-1",
            model: "m-1",
          })),
        },
      };
    }
    if (path.startsWith("/api/sdk/externalSpans/")) {
      const id = decodeURIComponent(path.slice("/api/sdk/externalSpans/".length));
      const original = originals.find((o) => o.spanId === id);
      if (!original) return { status: 404, body: { error: "not found", code: "not_found" } };
      return {
        body: {
          id: original.spanId,
          externalTraceId: original.traceId,
          rawData: { span_data: { input: original.input, input_meta: original.input_meta } },
        },
      };
    }
    if (path.startsWith("/api/sdk/replay/spanTree/")) {
      const id = decodeURIComponent(path.slice("/api/sdk/replay/spanTree/".length));
      const original = originals.find((o) => o.spanId === id);
      if (!original?.tree) return { status: 404, body: { error: "not found", code: "not_found" } };
      return { body: { root: original.tree } };
    }
    if (path === "/api/sdk/replay/status") {
      const body = request.json() as { expectedSpanCounts: Record<string, number> };
      state.statusBodies.push(body);
      if (!state.statusConfirms) return { body: { traceIds: {} } };
      const ids = Object.entries(body.expectedSpanCounts).filter(([id, n]) => persisted(id, n) || collectorMode);
      return { body: { traceIds: Object.fromEntries(ids.map(([id]) => [id, id])) } };
    }
    if (path === "/api/sdk/replay/complete") {
      const ids = [...completions.keys()];
      return {
        body: {
          traceIds: Object.fromEntries(ids.map((id) => [id, id])),
          tokens: Object.fromEntries(ids.map((id) => [id, { input: 3, output: 1, cached: 0, total: 4 }])),
          traceCount: ids.length,
          traceOutlines: Object.fromEntries(ids.map((id) => [id, outlineOf(id)])),
          originalTraceOutlines: Object.fromEntries(
            originals.map((o) => [o.traceId, { traceId: o.traceId, status: "completed", spanCount: 1, spans: [] }]),
          ),
        },
      };
    }
    if (path.startsWith("/collector/")) return { body: "" };
    return { status: 404, body: { error: "no route", code: "not_found" } };
  };

  let collectorMode = false;
  const ingest = (request: RecordedRequest): FakeResponse => {
    const traceIds: Record<string, string> = {};
    for (const carrier of carriersOf(request)) {
      const payload = carrier.payload as Payload;
      if (carrier.operation === "external_span") {
        const list = spans.get(payload.sourceTraceId) ?? [];
        list.push(payload);
        spans.set(payload.sourceTraceId, list);
        traceIds[payload.sourceTraceId] = payload.sourceTraceId;
      } else {
        completions.set(payload.id, payload);
        traceIds[payload.id] = payload.id;
      }
    }
    return { body: { traceIds } };
  };

  const outlineOf = (traceId: string) => ({
    traceId,
    status: "completed",
    traceFunctionKey: completions.get(traceId)?.traceFunctionKey,
    spanCount: spans.get(traceId)?.length ?? 0,
    spans: (spans.get(traceId) ?? []).map((s) => ({ spanId: s.rawSpan.id, name: s.rawSpan.span_data.name, type: s.rawSpan.span_data.type, errors: null, mocked: false, children: [] })),
  });

  return {
    handler,
    spans,
    completions,
    calls,
    state,
    useCollectorMode() {
      collectorMode = true;
    },
  };
}
