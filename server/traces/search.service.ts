// Trace search for agents (the search_traces tool) and the list of trace functions: the filters of the
// existing product's plugins over the same trace rows and metrics as the REST reads.
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import * as q from "./search.queries.ts";
import type { TraceSearchFilter } from "./search.queries.ts";
import type { TTrace } from "./traces.schemas.ts";
import { escapeLike, getTraceMetrics, toTraceResponse } from "./traces.service.ts";
import { selectTraces } from "./traces.queries.ts";

export interface TTraceSearchInput extends Omit<TraceSearchFilter, "titlePattern" | "titleRegex" | "textPattern" | "textRegex" | "callerMetadata"> {
  /** Substring of the title, the metadata or the root span's input or output. */
  searchQuery?: string;
  /** Regular expression over the same text. */
  traceFilterRegex?: string;
  /** Whole words of the title, in order, case-insensitive. */
  name?: string;
  /** Substring of the title, case-insensitive. */
  nameContains?: string;
  callerMetadata?: Record<string, string>;
  limit: number;
}

export interface TTraceSearchHit {
  trace: TTrace;
  createdAt: string;
  /** The root span's output, as stored (the caller cuts it). */
  output: unknown;
  rootError: string | null;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whole words in order: `\mfoo\M.*\mbar\M` (PostgreSQL word boundaries). */
export function wordsRegex(name: string): string {
  return name.trim().split(/\s+/).map((w) => `\\m${escapeRegex(w)}\\M`).join(".*");
}

export async function searchTraces(db: Database, organizationId: string, input: TTraceSearchInput): Promise<TTraceSearchHit[]> {
  const filter: TraceSearchFilter = {
    ...input,
    includeReplays: input.includeReplays || input.testRunId !== undefined,
    titlePattern: input.nameContains !== undefined ? `%${escapeLike(input.nameContains)}%` : undefined,
    titleRegex: input.name !== undefined && input.name.trim() !== "" ? wordsRegex(input.name) : undefined,
    textPattern: input.searchQuery !== undefined ? `%${escapeLike(input.searchQuery)}%` : undefined,
    textRegex: input.traceFilterRegex,
    callerMetadata: input.callerMetadata ? Object.entries(input.callerMetadata).map(([k, v]) => [k.toLowerCase(), v.toLowerCase()]) : undefined,
  };
  let ids: Array<{ id: string }>;
  try {
    ids = await q.selectTraceSearch(db, organizationId, filter, input.limit);
  } catch (error) {
    // 2201B: invalid regular expression (PostgreSQL's syntax differs from JavaScript's in places).
    if ((error as { code?: string }).code === "2201B" || /invalid regular expression/i.test(String((error as Error).message))) {
      throw new AppError("bad_request", `traceFilterRegex is not a valid regular expression: ${(error as Error).message}`);
    }
    throw error;
  }
  if (ids.length === 0) return [];
  const rows = await selectTraces(db, organizationId, ids.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((r) => byId.get(r.id)).filter((r) => r !== undefined);
  const [metrics, outputs, created] = await Promise.all([
    getTraceMetrics(db, organizationId, ordered),
    q.selectRootOutputs(db, organizationId, ordered.map((r) => r.id)),
    q.selectCreatedAt(db, organizationId, ordered.map((r) => r.id)),
  ]);
  const root = new Map(outputs.map((o) => [o.trace_id, o]));
  const createdAt = new Map(created.map((c) => [c.id, c.createdAt.toISOString()]));
  return ordered.map((r) => ({
    trace: toTraceResponse(r, metrics.get(r.id)),
    createdAt: createdAt.get(r.id) ?? "",
    output: root.get(r.id)?.output ?? null,
    rootError: root.get(r.id)?.error ?? null,
  }));
}

export interface TTraceFunction {
  traceFunctionKey: string;
  traceCount: number;
  lastActivity: string | null;
}

/** The organization's trace functions (captured and seeded traces), most recently active first. */
export async function findTraceFunctions(db: Database, organizationId: string): Promise<TTraceFunction[]> {
  const rows = await q.selectTraceFunctions(db, organizationId);
  return rows.map((r) => ({
    traceFunctionKey: r.trace_function_key,
    traceCount: r.trace_count,
    lastActivity: r.last_activity === null ? null : new Date(r.last_activity).toISOString(),
  }));
}
