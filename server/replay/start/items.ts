// Replay items (docs/replay.md, "Start: what gets replayed"): one per original trace, with every id
// alias and metric alias the SDKs read, so SDKs of either naming work unchanged.
import type { Database } from "../../db/client.ts";
import { describeUnfaithful } from "../../traces/faithful.ts";
import { getTraceMetrics } from "../../traces/traces.service.ts";
import { selectRootSpans } from "./selection.queries.ts";
import { selectItemTraces } from "./selection.queries.ts";
import type { TReplayItem } from "./start.schemas.ts";

export interface ItemOptions {
  includeDbBranchLease: boolean;
  includeOriginalMetadata: boolean;
}

/**
 * Reprise has no database branches (docs/replay.md, "Start: what gets replayed"): a lease request gets an error per
 * item instead.
 */
function leaseError(ingestionType: string) {
  return ingestionType === "seeded"
    ? { code: "seeded_trace", message: "A seeded trace carries no database snapshot pin, so it cannot get a database branch." }
    : { code: "not_supported", message: "This Reprise server does not provide database branches." };
}

export async function buildItems(db: Database, organizationId: string, traceIds: string[], o: ItemOptions): Promise<TReplayItem[]> {
  if (traceIds.length === 0) return [];
  const [traces, roots] = await Promise.all([
    selectItemTraces(db, organizationId, traceIds),
    selectRootSpans(db, organizationId, traceIds),
  ]);
  const metrics = await getTraceMetrics(db, organizationId, traces);
  const byId = new Map(traces.map((t) => [t.id, t]));
  const rootOf = new Map<string, string>();
  // Rows come earliest first, so the first root seen for a trace is its root span.
  for (const r of roots) if (!rootOf.has(r.traceId)) rootOf.set(r.traceId, r.id);
  return traceIds.flatMap((id) => {
    const trace = byId.get(id);
    if (!trace) return [];
    const m = metrics.get(id);
    const spanId = rootOf.get(id) ?? null;
    return [{
      externalSpanId: spanId,
      originalSpanId: spanId,
      sourceSpanId: spanId,
      originalTraceId: id,
      sourceTraceId: id,
      originalDurationMs: m?.durationMs ?? null,
      durationMs: m?.durationMs ?? null,
      originalTokens: m?.tokens ?? null,
      tokens: m?.tokens ?? null,
      originalModel: m?.model ?? null,
      model: m?.model ?? null,
      ingestionType: trace.ingestionType,
      faithful: m?.faithful ?? true,
      ...(m && !m.faithful ? { unfaithfulReason: describeUnfaithful(m.captureIssues) } : {}),
      dbSnapshotRef: null,
      ...(o.includeDbBranchLease ? { dbBranchLeaseError: leaseError(trace.ingestionType) } : {}),
      ...(o.includeOriginalMetadata ? { originalMetadata: isObject(trace.metadata) ? trace.metadata : {} } : {}),
    }];
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
