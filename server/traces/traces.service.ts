// Trace use cases shared by REST, the console (tRPC) and replay: read one, list a page, derive metrics, and
// apply detached updates (docs/api/traces.md, "PATCH /api/sdk/traces/{traceId}").
import { getEnv } from "../env.ts";
import type { Database, DbClient } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { decodeTraceCursor, encodeTraceCursor } from "./trace-cursor.ts";
import { durationOf, EMPTY_METRICS, pickModel, tokensOf, type SpanAggregate, type TTraceMetrics, type ModelCount } from "./trace-metrics.ts";
import * as q from "./traces.queries.ts";
import type { TTrace, TTraceList, TTraceListQuery, TTracePatch } from "./traces.schemas.ts";
import { toJsonbParam, toStorableJson } from "./storable-json.ts";
import { traceTitle } from "../shared/trace-title.ts";

export type { TTraceMetrics };
export type TTraceFilters = Partial<TTraceListQuery> & {
  /** The console's search: also the session id and the root span's input and output (bounded by a timeout). */
  searchContent?: boolean;
  /** Exactly this session id (the console's session link). */
  sessionId?: string;
  /** Leaves replay traces out unless the kind filter asks for them (the console's default). */
  excludeReplays?: boolean;
};

/** The most ids a labelling queue holds (docs/api/console.md "Labelling queue"). */
export const QUEUE_MAX = 5000;

/**
 * One trace of the organization with its metrics; another organization's or an unknown id is a 404. A caller
 * that read the trace's spans already passes their aggregate rows (aggregateTraceSpans; the trace page).
 */
export async function getTrace(db: Database, organizationId: string, id: string, aggregates?: q.TTraceSpanAggregateRow[]): Promise<TTrace> {
  const row = await q.selectTrace(db, organizationId, id);
  if (!row) throw notFound(`Trace ${id}`);
  const metrics = aggregates ? toTraceMetrics([row], aggregates) : await getTraceMetrics(db, organizationId, [row]);
  return toTraceResponse(row, metrics.get(row.id));
}

function pageFilter(filters: TTraceFilters): q.TracePageFilter {
  return {
    traceFunctionKey: filters.traceFunctionKey,
    status: filters.status,
    titlePattern: filters.search !== undefined ? `%${escapeLike(filters.search)}%` : undefined,
    searchContent: filters.searchContent,
    sessionId: filters.sessionId,
    labelState: filters.labelState,
    kind: filters.kind,
    excludeReplays: filters.excludeReplays,
    startedFrom: filters.startedFrom,
    startedTo: filters.startedTo,
    model: filters.model,
    graderId: filters.graderId,
    graderLabel: filters.graderLabel,
    graderCategory: filters.graderCategory,
    verdictSource: filters.verdictSource,
    testRunId: filters.testRunId,
    minCostUsd: filters.minCostUsd,
  };
}

/**
 * Runs a list read; a content search runs in a transaction with a statement timeout, so a search over the
 * unindexed JSON text can never hold a connection for long (it answers 400 asking for a narrower filter).
 */
async function boundedRead<T>(db: Database, filters: TTraceFilters, read: (db: DbClient) => Promise<T>): Promise<T> {
  if (!filters.searchContent || filters.search === undefined) return read(db);
  // How long a content search may run before it is refused (docs/api/console.md "Searching content").
  const timeoutMs = getEnv().REPRISE_CONTENT_SEARCH_TIMEOUT_MS;
  try {
    return await db.transaction(async (tx) => {
      await q.setStatementTimeout(tx, timeoutMs);
      return read(tx);
    });
  } catch (error) {
    if ((error as { code?: string } | null)?.code === "57014") {
      const limit = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`;
      throw new AppError("bad_request", `The search through trace content took longer than ${limit}; narrow it with a trace function, a status or a date range.`);
    }
    throw error;
  }
}

/** A page of non-dropped traces, newest first, with an opaque cursor for the next page. */
export async function findTraces(db: Database, organizationId: string, filters: TTraceFilters = {}): Promise<TTraceList> {
  const limit = filters.limit ?? 50;
  const after = filters.cursor !== undefined ? decodeTraceCursor(filters.cursor) : undefined;
  const page = await boundedRead(db, filters, (c) => q.selectTracePage(c, organizationId, { ...pageFilter(filters), after }, limit + 1));
  const hasMore = page.length > limit;
  const ids = page.slice(0, limit);
  const rows = ids.length ? await q.selectTraces(db, organizationId, ids.map((r) => r.id)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((r) => byId.get(r.id)).filter((r) => r !== undefined);
  const metrics = await getTraceMetrics(db, organizationId, ordered);
  const last = ids.at(-1);
  return {
    traces: ordered.map((r) => toTraceResponse(r, metrics.get(r.id))),
    nextCursor: hasMore && last ? encodeTraceCursor({ startedUs: last.started_us, id: last.id }) : null,
    hasMore,
  };
}

/** How many non-dropped traces match the filters (the list's total). */
export function countTraces(db: Database, organizationId: string, filters: TTraceFilters = {}): Promise<number> {
  return boundedRead(db, filters, (c) => q.countTraces(c, organizationId, pageFilter(filters)));
}

/**
 * The ids of every trace matching the filters, in list order, up to QUEUE_MAX: the labelling queue walks
 * them (a snapshot, so labelling a trace never reshuffles the queue under the labeller).
 */
export async function findTraceQueue(db: Database, organizationId: string, filters: TTraceFilters = {}) {
  const rows = await boundedRead(db, filters, (c) => q.selectTracePage(c, organizationId, pageFilter(filters), QUEUE_MAX + 1));
  return { ids: rows.slice(0, QUEUE_MAX).map((r) => r.id), truncated: rows.length > QUEUE_MAX };
}

/** The ids of at most `take` traces matching the filters, in list order (a filtered delete removes them). */
export async function findMatchingTraceIds(db: Database, organizationId: string, filters: TTraceFilters, take: number): Promise<string[]> {
  const rows = await boundedRead(db, filters, (c) => q.selectTracePage(c, organizationId, pageFilter(filters), take));
  return rows.map((r) => r.id);
}

/** The organization's traces among `ids`, in the order given; ids naming no trace of it are left out. */
export async function findTracesByIds(db: Database, organizationId: string, ids: string[]): Promise<TTrace[]> {
  const rows = ids.length ? await q.selectTraces(db, organizationId, ids) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  const metrics = await getTraceMetrics(db, organizationId, ordered);
  return ordered.map((r) => toTraceResponse(r, metrics.get(r.id)));
}

/**
 * spanCount, durationMs, tokens, model and faithfulness of each trace (one grouped query, whatever the
 * number of traces).
 */
export async function getTraceMetrics(
  db: Database,
  organizationId: string,
  traces: Array<{ id: string; startedAt: Date | null; endedAt: Date | null }>,
): Promise<Map<string, TTraceMetrics>> {
  const ids = traces.map((t) => t.id);
  if (ids.length === 0) return new Map();
  return toTraceMetrics(traces, await q.aggregateTraceSpans(db, organizationId, ids));
}

/** The metrics of `traces` from their spans' aggregate rows (aggregateTraceSpans). */
function toTraceMetrics(
  traces: Array<{ id: string; startedAt: Date | null; endedAt: Date | null }>,
  aggregates: q.TTraceSpanAggregateRow[],
): Map<string, TTraceMetrics> {
  const issues = new Map<string, string[]>();
  const spans = new Map<string, SpanAggregate>();
  const models = new Map<string, ModelCount[]>();
  for (const r of aggregates) {
    if (r.perModel) {
      if (r.model === null) continue;
      const list = models.get(r.traceId) ?? [];
      list.push({ model: r.model, count: r.count, firstSeen: r.firstStart ?? r.firstCreated });
      models.set(r.traceId, list);
      continue;
    }
    issues.set(r.traceId, r.captureIssues);
    spans.set(r.traceId, {
      count: r.count,
      reported: { input: r.inputReported, output: r.outputReported, cached: r.cachedReported, total: r.totalReported },
      sum: { input: r.inputSum, output: r.outputSum, cached: r.cachedSum, total: r.totalSum },
      firstStart: r.firstStart,
      lastEnd: r.lastEnd,
    });
  }
  return new Map(
    traces.map((t) => {
      const a = spans.get(t.id);
      const captureIssues = issues.get(t.id) ?? [];
      return [
        t.id,
        { spanCount: a?.count ?? 0, durationMs: durationOf(t, a), tokens: tokensOf(a), model: pickModel(models.get(t.id) ?? []), faithful: captureIssues.length === 0, captureIssues },
      ];
    }),
  );
}

/**
 * Applies a detached update (docs/api/traces.md, "PATCH /api/sdk/traces/{traceId}"): appendContexts appends,
 * mergeMetadata shallow-merges (keys in the patch win), setSessionId and setName replace. Returns the updated trace.
 */
export async function updateTrace(db: Database, organizationId: string, id: string, patch: TTracePatch): Promise<TTrace> {
  const found = await q.patchTraceRow(db, organizationId, id, {
    appendContexts: patch.appendContexts !== undefined ? toJsonbParam(patch.appendContexts) : undefined,
    mergeMetadata: patch.mergeMetadata !== undefined ? toJsonbParam(patch.mergeMetadata) : undefined,
    setSessionId: storableText(patch.setSessionId),
    setName: storableText(patch.setName),
  });
  if (!found) throw notFound(`Trace ${id}`);
  return getTrace(db, organizationId, id);
}

export function toTraceResponse(row: q.TTraceRow, metrics: TTraceMetrics = EMPTY_METRICS): TTrace {
  return {
    id: row.id,
    name: traceTitle(row.name, row.traceFunctionKey),
    traceFunctionKey: row.traceFunctionKey,
    status: row.status,
    ingestionType: row.ingestionType,
    sessionId: row.sessionId,
    metadata: isObject(row.metadata) ? row.metadata : {},
    contexts: Array.isArray(row.contexts) ? row.contexts : [],
    startedAt: row.startedAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    expectedSpanCount: row.expectedSpanCount,
    completedAt: row.completedAt?.toISOString() ?? null,
    dropped: row.dropped,
    spanCount: metrics.spanCount,
    durationMs: metrics.durationMs,
    tokens: metrics.tokens,
    model: metrics.model,
    faithful: metrics.faithful,
    captureIssues: metrics.captureIssues,
    testRunId: row.testRunId,
    originalTraceId: row.originalTraceId,
    source: row.source,
    amendedAt: row.amendedAt?.toISOString() ?? null,
    costUsd: row.costUsd === null ? null : Number(row.costUsd),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function storableText(v: string | null | undefined): string | null | undefined {
  return typeof v === "string" ? (toStorableJson(v).value as string) : v;
}

/** Escapes LIKE wildcards so `search` is a plain substring (ESCAPE '\'). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
