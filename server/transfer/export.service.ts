// Export (docs/operations.md, "Export and import"): the traces a trace-list filter selects, a page at a time
// (the list's own keyset cursor), each page read with a bounded number of statements and turned into lines.
// Nothing holds more than one page: the REST stream pulls the next page only when the client has read the last.
import type { Database } from "../db/client.ts";
import { findTraces, type TTraceFilters } from "../traces/traces.service.ts";
import * as q from "./export.queries.ts";
import { toOtlpLine } from "./otlp-export.ts";
import type { TInclude } from "./transfer.schemas.ts";

/** The trace list's filters (REST's, or the console's with its session and replay switches). */
export type TExportSelection = Omit<TTraceFilters, "cursor" | "limit">;

/** Traces per page: enough to amortise the statements, few enough that a page of long traces stays small. */
export const EXPORT_PAGE_TRACES = 50;

export interface TExportOptions {
  format: "jsonl" | "otlp";
  include: TInclude[];
}

export interface TExportPage {
  lines: string[];
  traces: number;
  nextCursor: string | null;
}

type TRow = Record<string, unknown>;

/** A row as the file carries it: without its organization (the importer's is used) and the write's transaction token. */
function portable(row: TRow): TRow {
  const { organization_id: _org, final_xact: _xact, ...rest } = row;
  return rest;
}

const group = (rows: TRow[], key: string): Map<string, TRow[]> => {
  const out = new Map<string, TRow[]>();
  // Appended in place: copying the list per row was quadratic in a trace's spans (a 100,000-span trace's page).
  for (const r of rows) {
    const list = out.get(r[key] as string);
    if (list) list.push(portable(r));
    else out.set(r[key] as string, [portable(r)]);
  }
  return out;
};

/**
 * One page of the export after `cursor`. `seen` (kept by a caller that streams every page) leaves out graders
 * and datasets an earlier page already wrote; without it a page writes those it needs (an import takes duplicates).
 */
export async function exportPage(
  db: Database,
  organizationId: string,
  filters: TExportSelection,
  options: TExportOptions,
  cursor: string | null,
  seen: Set<string> = new Set(),
): Promise<TExportPage> {
  const page = await findTraces(db, organizationId, { ...filters, limit: EXPORT_PAGE_TRACES, ...(cursor ? { cursor } : {}) });
  const ids = page.traces.map((t) => t.id);
  const r = await q.selectPageRows(db, organizationId, ids);
  const spans = group(r.spans, "trace_id");
  const events = group(r.events, "trace_id");
  const labels = group(r.labels, "trace_id");
  const graderLabels = group(r.graderLabels, "trace_id");
  const assertions = group(r.assertions, "trace_id");
  const versions = group(r.assertionVersions, "assertion_id");
  const members = group(r.datasetMembers, "trace_id");
  const byId = new Map(r.traces.map((t) => [t.id as string, t]));
  const lines: string[] = [];
  for (const id of ids) {
    const trace = byId.get(id);
    if (!trace) continue; // deleted between the page and its rows
    const own = assertions.get(id) ?? [];
    const line = {
      kind: "trace" as const,
      trace: portable(trace),
      spans: spans.get(id) ?? [],
      events: events.get(id) ?? [],
      labels: labels.get(id) ?? [],
      graderLabels: graderLabels.get(id) ?? [],
      assertions: own,
      assertionVersions: own.flatMap((a) => versions.get(a.id as string) ?? []),
      datasets: options.include.includes("datasets") ? (members.get(id) ?? []) : [],
    };
    lines.push(options.format === "otlp" ? toOtlpLine(line) : JSON.stringify(line));
  }
  if (options.format === "jsonl") lines.push(...(await definitionLines(db, organizationId, options, r, seen)));
  return { lines, traces: ids.length, nextCursor: page.nextCursor };
}

/** Grader and dataset lines this page needs and no earlier page wrote. */
async function definitionLines(db: Database, organizationId: string, options: TExportOptions, r: q.TPageRows, seen: Set<string>): Promise<string[]> {
  const lines: string[] = [];
  if (options.include.includes("graders")) {
    const keys = [...new Set(r.traces.map((t) => t.trace_function_key as string | null).filter((k): k is string => !!k))].filter((k) => !seen.has(`key:${k}`));
    const graderIds = [...new Set(r.graderLabels.map((g) => g.grader_id as string))].filter((g) => !seen.has(`grader:${g}`));
    keys.forEach((k) => seen.add(`key:${k}`));
    const { graders, versions } = keys.length || graderIds.length ? await q.selectGraders(db, organizationId, keys, graderIds) : { graders: [], versions: [] };
    const byGrader = group(versions, "grader_id");
    for (const g of graders) {
      if (seen.has(`grader:${g.id}`)) continue;
      seen.add(`grader:${g.id}`);
      lines.push(JSON.stringify({ kind: "grader", grader: portable(g), versions: byGrader.get(g.id as string) ?? [] }));
    }
  }
  if (options.include.includes("datasets")) {
    const ids = [...new Set(r.datasetMembers.map((m) => m.dataset_id as string))].filter((d) => !seen.has(`dataset:${d}`));
    ids.forEach((d) => seen.add(`dataset:${d}`));
    const { datasets, graders } = await q.selectDatasets(db, organizationId, ids);
    const byDataset = group(graders, "dataset_id");
    for (const d of datasets) lines.push(JSON.stringify({ kind: "dataset", dataset: portable(d), graders: byDataset.get(d.id as string) ?? [] }));
  }
  return lines;
}

/** Every line of the export, page after page; the caller decides how fast to pull. */
export async function* exportLines(db: Database, organizationId: string, filters: TExportSelection, options: TExportOptions): AsyncGenerator<string> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: TExportPage = await exportPage(db, organizationId, filters, options, cursor, seen);
    for (const line of page.lines) yield line;
    cursor = page.nextCursor;
  } while (cursor !== null);
}
