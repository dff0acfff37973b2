// The console's Replays pages: experiments newest first with their counts, and one
// experiment's items with the original and replay outlines side by side, duration and token deltas, the
// assertion verdicts (trace labels) and the grader labels of each trace. Reuses the replay outlines
// (findTraceOutlines) and the label reads (findTraceLabels, findGraderLabels) the REST API serves.
import type { Database } from "../../db/client.ts";
import { decodeCursor, encodeCursor } from "../../shared/cursor.ts";
import { findGraderLabels } from "../../labels/grader-labels.service.ts";
import type { TGraderLabel, TTraceLabels } from "../../labels/labels.schemas.ts";
import { findTraceLabels } from "../../labels/trace-labels-read.service.ts";
import type { TTokens } from "../../traces/traces.schemas.ts";
import { getExperiment, idList } from "./experiments.service.ts";
import { findTraceOutlines } from "../outline/outline.service.ts";
import type { TTraceOutline } from "../outline/outline.schemas.ts";
import { selectTracesById, type TRunTraceRow } from "./run-traces.queries.ts";
import * as q from "./experiment-list.queries.ts";
import type { TExperimentComparisonInput, TExperimentListInput } from "./experiments.schemas.ts";

export interface TExperimentSummary {
  id: string;
  name: string | null;
  notes: string | null;
  traceFunctionKey: string;
  status: string;
  attempts: number;
  judgeAssertions: boolean;
  graderIds: string[];
  datasetIds: string[];
  createdAt: string;
  completedAt: string | null;
  experimentGroupId: string | null;
  gitBranch: string | null;
  commitSha: string | null;
  /** Originals selected for the run, replay traces planned (items × attempts), recorded and completed. */
  counts: { items: number; planned: number; replays: number; completedReplays: number };
}

export interface TComparedTrace {
  traceId: string;
  attempt: number | null;
  outline: TTraceOutline;
  tokens: TTokens;
  /** The whole-trace verdict and one entry per assertion (GET /api/sdk/traces/labels). */
  verdict: TTraceLabels | null;
  graderLabels: TGraderLabel[];
}

export interface TComparedItem {
  position: number;
  originalTraceId: string;
  /** null when the original trace is gone (or not the organization's). */
  original: TComparedTrace | null;
  /** One per attempt; `delta` is replay minus original (null when either side lacks the value). */
  replays: (TComparedTrace & { delta: { durationMs: number | null; totalTokens: number | null } })[];
}

type Key = { t: string; i: string };
const isKey = (v: unknown): v is Key =>
  typeof v === "object" && v !== null && /^-?\d{1,17}$/.test(String((v as Key).t)) && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(String((v as Key).i));

/** A page of the organization's experiments, newest first, with their counts. */
export async function findExperiments(db: Database, organizationId: string, input: TExperimentListInput) {
  const after = input.cursor !== undefined ? decodeCursor(input.cursor, isKey) : undefined;
  const page = await q.selectExperimentPage(db, organizationId, after && { createdUs: after.t, id: after.i }, input.limit + 1, {
    traceFunctionKey: input.traceFunctionKey,
    datasetId: input.datasetId,
    gitBranch: input.gitBranch,
  });
  const ids = page.slice(0, input.limit).map((r) => r.id);
  const experiments = await toSummaries(db, organizationId, ids);
  const last = page[input.limit - 1];
  return { experiments, nextCursor: page.length > input.limit && last ? encodeCursor({ t: last.created_us, i: last.id }) : null };
}

export async function toSummaries(db: Database, organizationId: string, ids: string[]): Promise<TExperimentSummary[]> {
  if (ids.length === 0) return [];
  const [rows, items, runs] = await Promise.all([
    q.selectExperiments(db, organizationId, ids),
    q.countItems(db, organizationId, ids),
    q.countRunTraces(db, organizationId, ids),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const run = runs.get(id) ?? { total: 0, completed: 0 };
    const itemCount = items.get(id) ?? 0;
    return [{
      id: r.id,
      name: r.name,
      notes: r.notes,
      traceFunctionKey: r.traceFunctionKey,
      status: r.status,
      attempts: r.attempts,
      judgeAssertions: r.judgeAssertions,
      graderIds: idList(r.graderIds),
      datasetIds: idList(r.datasetIds),
      createdAt: r.createdAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
      experimentGroupId: r.experimentGroupId,
      gitBranch: r.gitBranch,
      commitSha: r.commitSha,
      counts: { items: itemCount, planned: r.plannedTraceCount ?? itemCount * r.attempts, replays: run.total, completedReplays: run.completed },
    }];
  });
}

/** One experiment with a page of its items compared; another organization's or an unknown id is a 404. */
export async function getExperimentComparison(db: Database, organizationId: string, input: TExperimentComparisonInput) {
  const experiment = await getExperiment(db, organizationId, input.id);
  const [summary] = await toSummaries(db, organizationId, [experiment.id]);
  const page = await q.selectItemPage(db, organizationId, experiment.id, input.cursor, input.limit + 1);
  const items = page.slice(0, input.limit);
  const originalIds = items.map((i) => i.originalTraceId);
  const [originals, replays] = await Promise.all([
    selectTracesById(db, organizationId, originalIds),
    q.selectReplaysOf(db, organizationId, experiment.id, originalIds),
  ]);
  const compared = await compareTraces(db, organizationId, [...originals, ...replays]);
  const originalById = new Map(originals.map((t) => [t.id, t]));
  return {
    experiment: summary!,
    items: items.map((item): TComparedItem => {
      const original = originalById.has(item.originalTraceId) ? compared.get(item.originalTraceId)! : null;
      return {
        position: item.position,
        originalTraceId: item.originalTraceId,
        original,
        replays: replays.filter((r) => r.originalTraceId === item.originalTraceId).map((r) => withDelta(compared.get(r.id)!, original)),
      };
    }),
    nextCursor: page.length > input.limit ? items.at(-1)!.position : null,
  };
}

/** Outlines, tokens, verdicts and grader labels of many traces at once. */
async function compareTraces(db: Database, organizationId: string, traces: TRunTraceRow[]): Promise<Map<string, TComparedTrace>> {
  if (traces.length === 0) return new Map();
  const ids = traces.map((t) => t.id);
  const [{ outlines, metrics }, verdicts, graderLabels] = await Promise.all([
    findTraceOutlines(db, organizationId, traces),
    findTraceLabels(db, organizationId, ids),
    findGraderLabels(db, organizationId, { traceIds: ids }),
  ]);
  const verdictOf = new Map(verdicts.labels.map((l) => [l.traceId, l]));
  return new Map(
    traces.map((t) => [t.id, {
      traceId: t.id,
      attempt: t.replayAttempt,
      outline: outlines.get(t.id)!,
      tokens: metrics.get(t.id)?.tokens ?? null,
      verdict: verdictOf.get(t.id) ?? null,
      graderLabels: graderLabels.labels.filter((l) => l.traceId === t.id),
    }]),
  );
}

function withDelta(replay: TComparedTrace, original: TComparedTrace | null) {
  const diff = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? null : a - b);
  return {
    ...replay,
    delta: {
      durationMs: diff(replay.outline.durationMs, original?.outline.durationMs),
      totalTokens: diff(replay.tokens?.total, original?.tokens?.total),
    },
  };
}
