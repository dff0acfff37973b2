// Which traces a replay replays, and by which graders it is graded (docs/replay.md, "Start: what gets replayed").
// - `traceIds` and datasets (datasetId folded into datasetIds) select explicitly; `limit` is then ignored.
//   Both together replay the union: the ids first, in the given order, then each dataset's members.
// - Otherwise the `limit` (default 5) most recently started completed, non-dropped, non-replay traces that are
//   faithful recordings (no span trimmed by payload_budget or degraded by serialization_degraded); an explicit
//   selection keeps such traces and its items say so (`faithful: false`, `unfaithfulReason`).
// - Every id that cannot be used (unknown, another organization's, another trace function's, a dropped
//   trace, an archived grader) makes the request a 400 that names each one, and nothing is created.
import type { Database } from "../../db/client.ts";
import { AppError, type ValidationIssue } from "../../errors.ts";
import { isUuid } from "../../ids.ts";
import * as q from "./selection.queries.ts";
import type { TStartBody } from "./start.schemas.ts";

const DEFAULT_LIMIT = 5;
const MAX_DATASETS = 50;

export interface TSelection {
  traceIds: string[];
  datasetIds: string[];
  /** The run's graders: graderIds plus the datasets' active graders, deduplicated. */
  graderIds: string[];
  /** What was asked for, as stored on the experiment. */
  request: { limit?: number; traceIds?: string[]; datasetIds?: string[]; graderIds?: string[] };
}

export async function resolveSelection(db: Database, organizationId: string, body: TStartBody): Promise<TSelection> {
  const key = body.traceFunctionKey;
  const datasetIds = normaliseIds([...(body.datasetId ? [body.datasetId] : []), ...(body.datasetIds ?? [])]);
  const traceIds = normaliseIds(body.traceIds ?? []);
  const graderIds = normaliseIds(body.graderIds ?? []);
  if (datasetIds.length > MAX_DATASETS) {
    throw new AppError("validation_failed", `Invalid request body: at most ${MAX_DATASETS} datasets (datasetId and datasetIds together)`, {
      issues: [{ path: "datasetIds", message: `at most ${MAX_DATASETS} datasets` }],
    });
  }
  const issues = [
    ...(await checkDatasets(db, organizationId, key, datasetIds)),
    ...(await checkGraders(db, organizationId, key, graderIds)),
    ...(await checkTraces(db, organizationId, key, traceIds)),
  ];
  if (issues.length > 0) throw new AppError("bad_request", `Cannot start the replay: ${issues[0].message}`, { issues });

  const datasetGraders = datasetIds.length ? await q.selectActiveDatasetGraderIds(db, organizationId, datasetIds) : [];
  const explicit = traceIds.length > 0 || datasetIds.length > 0;
  const selected = explicit
    ? await explicitSelection(db, organizationId, traceIds, datasetIds, Boolean(body.onlyWithAssertions))
    : await q.selectRecentTraceIds(db, {
        organizationId,
        traceFunctionKey: key,
        limit: body.limit ?? DEFAULT_LIMIT,
        onlyWithAssertions: Boolean(body.onlyWithAssertions),
      });
  return {
    traceIds: selected,
    datasetIds,
    graderIds: [...new Set([...graderIds, ...datasetGraders])],
    request: explicit
      ? { ...(traceIds.length ? { traceIds } : {}), ...(datasetIds.length ? { datasetIds } : {}), graderIds }
      : { limit: body.limit ?? DEFAULT_LIMIT, graderIds },
  };
}

async function explicitSelection(db: Database, organizationId: string, traceIds: string[], datasetIds: string[], onlyWithAssertions: boolean) {
  const members = datasetIds.length ? await q.selectDatasetMembers(db, organizationId, datasetIds) : [];
  const order = new Map(datasetIds.map((id, i) => [id, i]));
  members.sort((a, b) => order.get(a.datasetId)! - order.get(b.datasetId)! || (a.traceId < b.traceId ? -1 : 1));
  const ids = [...new Set([...traceIds, ...members.map((m) => m.traceId)])];
  if (!onlyWithAssertions || ids.length === 0) return ids;
  const withAssertions = await q.selectTraceIdsWithAssertions(db, organizationId, ids);
  return ids.filter((id) => withAssertions.has(id));
}

/** UUIDs compare lowercase; duplicates collapse, first occurrence wins. */
function normaliseIds(ids: string[]): string[] {
  return [...new Set(ids.map((id) => (isUuid(id) ? id.toLowerCase() : id)))];
}

type Found = { id: string; traceFunctionKey: string | null };

/** Ids that name nothing of the organization, or something of another trace function, as issues. */
function reportIds<R extends Found>(
  field: string,
  noun: string,
  key: string,
  ids: string[],
  rows: R[],
  extra?: (row: R) => string | undefined,
): ValidationIssue[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    const message = !row
      ? `${noun} ${id} was not found in this organization`
      : row.traceFunctionKey !== key
        ? `${noun} ${id} belongs to trace function "${row.traceFunctionKey ?? ""}", not "${key}"`
        : extra?.(row);
    return message ? [{ path: field, message }] : [];
  });
}

async function checkDatasets(db: Database, organizationId: string, key: string, ids: string[]) {
  const rows = ids.length ? await q.selectDatasets(db, organizationId, ids.filter(isUuid)) : [];
  return reportIds("datasetIds", "dataset", key, ids, rows);
}

async function checkGraders(db: Database, organizationId: string, key: string, ids: string[]) {
  const rows = ids.length ? await q.selectGraders(db, organizationId, ids.filter(isUuid)) : [];
  return reportIds("graderIds", "grader", key, ids, rows, (g) => (g.status !== "active" ? `grader ${g.id} is not active (${g.status})` : undefined));
}

async function checkTraces(db: Database, organizationId: string, key: string, ids: string[]) {
  const rows = ids.length ? await q.selectTraceKeys(db, organizationId, ids.filter(isUuid)) : [];
  return reportIds("traceIds", "trace", key, ids, rows, (t) => (t.dropped ? `trace ${t.id} was dropped` : undefined));
}
