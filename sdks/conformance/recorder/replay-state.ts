import type { Carrier } from "./types.ts";

/** A span of an original trace the recorder hands out for replay. */
export interface OriginalSpan {
  id: string;
  name: string;
  type?: string;
  input?: unknown;
  output?: unknown;
  children?: OriginalSpan[];
}

/** An original (recorded) trace that `replay/start` selects. */
export interface OriginalTrace {
  traceId: string;
  traceFunctionKey: string;
  root: OriginalSpan;
}

/** The run id every `replay/start` answers with. */
export const TEST_RUN_ID = "7a1f5c1e-4b4e-4c53-9a34-2d1c0f7e9b10";

/**
 * The replay side of the recorder: selects originals, serves their spans (`externalSpans/{id}`,
 * `replay/spanTree/{id}`) and answers `replay/status` and `replay/complete` from the carriers it acknowledged,
 * exactly as a server that persisted them would (docs/replay.md, "Status: the persistence barrier").
 */
export class ReplayState {
  originals: OriginalTrace[] = [];
  /** Carriers of OTLP requests answered 2xx, in acknowledgment order, with the time of the answer. */
  readonly acked: Array<{ carrier: Carrier; at: number }> = [];

  start(body: any): Record<string, unknown> {
    let selected = this.originals;
    if (Array.isArray(body?.traceIds) && body.traceIds.length > 0) {
      selected = this.originals.filter((o) => body.traceIds.includes(o.traceId));
    } else if (typeof body?.limit === "number") {
      selected = this.originals.slice(0, body.limit);
    }
    return {
      testRunId: TEST_RUN_ID,
      experimentId: TEST_RUN_ID,
      testRunUrl: `/experiments/${TEST_RUN_ID}`,
      experimentUrl: `/experiments/${TEST_RUN_ID}`,
      items: selected.map((o) => ({
        externalSpanId: o.root.id,
        originalSpanId: o.root.id,
        sourceSpanId: o.root.id,
        originalTraceId: o.traceId,
        sourceTraceId: o.traceId,
        originalDurationMs: 100,
        durationMs: 100,
        originalTokens: null,
        tokens: null,
        originalModel: null,
        model: null,
      })),
    };
  }

  /** `GET externalSpans/{id}`: the stored rawSpan of an original span, or undefined. */
  externalSpan(id: string): Record<string, unknown> | undefined {
    for (const original of this.originals) {
      const span = find(original.root, id);
      if (span) {
        return {
          id: span.id,
          externalTraceId: original.traceId,
          rawData: { id: span.id, trace_id: original.traceId, span_data: { name: span.name, type: span.type ?? "function", input: span.input, output: span.output } },
        };
      }
    }
    return undefined;
  }

  /** `GET replay/spanTree/{id}`: the original trace's tree with recorded outputs, in start order. */
  spanTree(id: string): Record<string, unknown> | undefined {
    const original = this.originals.find((o) => find(o.root, id) !== undefined);
    if (!original) return undefined;
    const node = (span: OriginalSpan): Record<string, unknown> => ({
      sourceSpanId: span.id,
      externalSpanId: span.id,
      traceFunctionKey: original.traceFunctionKey,
      spanName: span.name,
      type: span.type ?? "function",
      output: span.output,
      children: (span.children ?? []).map(node),
    });
    return { root: node(original.root) };
  }

  /** Local trace ids whose completion and at least `expected` unique spans were acknowledged. */
  persisted(expectedSpanCounts: Record<string, number>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [traceId, expected] of Object.entries(expectedSpanCounts ?? {})) {
      const completion = this.acked.some((a) => a.carrier.operation === "external_trace" && a.carrier.payload.id === traceId);
      if (completion && this.spansOf(traceId).length >= expected) out[traceId] = traceId;
    }
    return out;
  }

  complete(): Record<string, unknown> {
    const traces = [
      ...new Set(
        this.acked
          .filter((a) => a.carrier.operation === "external_trace" && (a.carrier.payload.testRunId ?? a.carrier.payload.experimentId) === TEST_RUN_ID)
          .map((a) => String(a.carrier.payload.id)),
      ),
    ];
    return {
      traceIds: Object.fromEntries(traces.map((id) => [id, id])),
      tokens: Object.fromEntries(traces.map((id) => [id, null])),
      traceCount: traces.length,
      traceOutlines: Object.fromEntries(traces.map((id) => [id, this.outline(id)])),
      originalTraceOutlines: Object.fromEntries(
        this.originals.map((o) => [o.traceId, { traceId: o.traceId, status: "completed", traceFunctionKey: o.traceFunctionKey, spanCount: count(o.root), spans: [] }]),
      ),
    };
  }

  /** Unique acknowledged span payloads of a trace (the last copy of each span id wins). */
  spansOf(traceId: string): Array<Record<string, any>> {
    const byId = new Map<string, Record<string, any>>();
    for (const { carrier } of this.acked) {
      if (carrier.operation === "external_span" && carrier.payload.sourceTraceId === traceId) {
        byId.set(String(carrier.payload.rawSpan?.id), carrier.payload);
      }
    }
    return [...byId.values()];
  }

  private outline(traceId: string): Record<string, unknown> {
    const spans = this.spansOf(traceId);
    const build = (parentId: string | undefined): unknown[] =>
      spans
        .filter((s) => s.rawSpan?.parent_id === parentId)
        .map((s) => ({
          spanId: s.rawSpan.id,
          name: s.rawSpan.span_data?.name ?? null,
          type: s.rawSpan.span_data?.type ?? "custom",
          errors: Array.isArray(s.errors) && s.errors.length > 0 ? s.errors : null,
          mocked: s.mocked === true,
          children: build(s.rawSpan.id),
        }));
    return { traceId, status: "completed", spanCount: spans.length, spans: build(undefined) };
  }
}

function find(span: OriginalSpan, id: string): OriginalSpan | undefined {
  if (span.id === id) return span;
  for (const child of span.children ?? []) {
    const hit = find(child, id);
    if (hit) return hit;
  }
  return undefined;
}

function count(span: OriginalSpan): number {
  return 1 + (span.children ?? []).reduce((n, c) => n + count(c), 0);
}
