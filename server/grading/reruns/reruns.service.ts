// Dataset grader re-runs (docs/api/graders.md; docs/graders.md, "Re-runs").
// States pending → running → completed | errored. One active run per dataset, enforced by the
// database (partial unique index): a request with the same graders joins it, a different one is 400.
// The run is durable: its (trace, grader) items and grading jobs are written in one transaction.
import type { Database } from "../../db/client.ts";
import { AppError, badRequest, notFound } from "../../errors.ts";
import { isUuid, newId } from "../../ids.ts";
import { gradingJobs } from "../grading.service.ts";
import { GRADING_QUEUE, gradingJobClient } from "../grading.queues.ts";
import { findActiveRerun, findLatestRerun, findRerun, insertRerunIfNoneActive, selectRerunResults, insertRerunItems, selectDatasetWithGraders, type RerunRow, type RerunSubject } from "./reruns.queries.ts";

export type { RerunSubject } from "./reruns.queries.ts";
import type { TGraderRerun } from "./reruns.schemas.ts";

export function toRerunResponse(row: RerunRow): TGraderRerun {
  const graderIds = row.graderIds;
  const subject = row.experimentId ? { experimentId: row.experimentId } : row.experimentGroupId ? { experimentGroupId: row.experimentGroupId } : {};
  const base = { id: row.id, datasetId: row.datasetId, ...subject, status: row.status as TGraderRerun["status"], graderIds, createdAt: new Date(row.createdAt).toISOString(), updatedAt: new Date(row.updatedAt).toISOString() };
  if (row.status === "pending" || row.status === "running") {
    return { ...base, progress: { completedTraces: row.completedTraces, totalTraces: row.totalTraces, graderCount: graderIds.length } };
  }
  if (row.status === "completed") return { ...base, result: { tracesGraded: row.tracesGraded ?? 0, gradersRun: row.gradersRun ?? graderIds.length } };
  return { ...base, error: row.error ?? "The re-run failed." };
}

async function getDatasetWithGraders(db: Database, organizationId: string, datasetId: string) {
  if (!isUuid(datasetId)) throw notFound("Dataset");
  const dataset = await selectDatasetWithGraders(db, organizationId, datasetId);
  if (!dataset) throw notFound("Dataset");
  return { id: dataset.id, graders: dataset.graders.map((g) => g.grader).filter((g) => g.organizationId === organizationId) };
}

/** The graders a re-run uses: the requested ones (each must be assigned and active), else every active assigned one. */
function selectGraders(assigned: { id: string; status: string }[], requested: string[] | undefined, what = "the dataset", howToAssign = "POST /api/sdk/datasets/{id}/graders"): string[] {
  if (assigned.length === 0) throw badRequest(`${what[0]!.toUpperCase()}${what.slice(1)} has no graders. Assign graders first (${howToAssign}).`);
  if (!requested) {
    const active = assigned.filter((g) => g.status === "active").map((g) => g.id);
    if (active.length === 0) throw badRequest(`Every grader assigned to ${what} is archived; there is nothing to run.`);
    return active.sort();
  }
  const byId = new Map(assigned.map((g) => [g.id, g]));
  const wanted = [...new Set(requested.map((id) => id.toLowerCase()))];
  const unassigned = wanted.filter((id) => !byId.has(id));
  if (unassigned.length > 0) throw badRequest(`Not assigned to ${what}: ${unassigned.join(", ")}.`);
  const archived = wanted.filter((id) => byId.get(id)!.status !== "active");
  if (archived.length > 0) throw badRequest(`Archived graders cannot run: ${archived.join(", ")}.`);
  return wanted.sort();
}

const sameSelection = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((id, i) => id === [...b].sort()[i]);

export async function startRerun(db: Database, organizationId: string, datasetId: string, requested?: string[]): Promise<{ run: TGraderRerun; joinedExisting: boolean }> {
  const dataset = await getDatasetWithGraders(db, organizationId, datasetId);
  const graderIds = selectGraders(dataset.graders, requested);
  return startSubjectRerun(db, organizationId, { kind: "dataset", id: dataset.id }, graderIds, "dataset");
}

/**
 * Re-runs graders over an experiment's replay traces, or over those of a group's experiments, the way a
 * dataset re-run does (docs/graders.md, "Re-runs"). The caller checked the subject is the organization's
 * and passes the graders attached to it.
 */
export async function startAttachedRerun(
  db: Database,
  organizationId: string,
  subject: RerunSubject,
  attached: { id: string; status: string }[],
  requested?: string[],
): Promise<{ run: TGraderRerun; joinedExisting: boolean }> {
  const what = subject.kind === "experiment" ? "the experiment" : "the experiment group";
  const graderIds = selectGraders(attached, requested, what, subject.kind === "experiment" ? "add_graders_to_experiment" : "add_graders_to_experiment_group");
  return startSubjectRerun(db, organizationId, subject, graderIds, subject.kind === "experiment" ? "experiment" : "experiment group");
}

async function startSubjectRerun(db: Database, organizationId: string, subject: RerunSubject, graderIds: string[], what: string) {
  // Ready before the transaction: on PGlite a transaction holds the only connection.
  const jobs = await gradingJobClient(db);
  return db.transaction(async (tx) => {
    const inserted = await insertRerunIfNoneActive(tx, { id: newId(), organizationId, subject, graderIds });
    if (!inserted) {
      // Another run is active (its insert committed first; ON CONFLICT waited for it).
      const active = await findActiveRerun(tx, organizationId, subject);
      if (!active) throw new AppError("service_unavailable", `The ${what}'s active re-run changed while starting; retry.`, { retryAfter: 1 });
      if (!sameSelection(active.graderIds, graderIds)) {
        throw badRequest(`A re-run with different graders (${active.graderIds.join(", ")}) is active for this ${what} (run ${active.id}); wait until it ends.`);
      }
      return { run: toRerunResponse(active), joinedExisting: true };
    }
    const traceIds = await insertRerunItems(tx, { id: inserted.id, organizationId, subject, graderIds });
    const requests = traceIds.map((traceId) => ({ organizationId, traceId, graderIds, runId: inserted.id, dedupeKey: `rerun:${inserted.id}` }));
    await jobs.insert(GRADING_QUEUE, gradingJobs(requests), tx);
    const run = (await findRerun(tx, organizationId, subject, inserted.id))!;
    return { run: toRerunResponse(run), joinedExisting: false };
  });
}

/** The named run of a subject, or its active run (null when none). Unknown or foreign run ids are 404. */
export async function getSubjectRerun(db: Database, organizationId: string, subject: RerunSubject, runId?: string): Promise<{ run: TGraderRerun | null }> {
  if (runId !== undefined) {
    const row = isUuid(runId) ? await findRerun(db, organizationId, subject, runId.toLowerCase()) : null;
    if (!row) throw notFound("Re-run");
    return { run: toRerunResponse(row) };
  }
  const active = await findActiveRerun(db, organizationId, subject);
  return { run: active ? toRerunResponse(active) : null };
}

/** The named run, or the dataset's active run (null when none). Unknown or foreign ids are 404. */
export async function getRerun(db: Database, organizationId: string, datasetId: string, runId?: string): Promise<{ run: TGraderRerun | null }> {
  const dataset = await getDatasetWithGraders(db, organizationId, datasetId);
  return getSubjectRerun(db, organizationId, { kind: "dataset", id: dataset.id }, runId);
}

const RESULT_ROWS = 1000;

export interface TRerunTraceResult {
  traceId: string;
  traceName: string | null;
  graders: { graderId: string; graderName: string | null; graded: boolean | null; label: boolean | null; reason: string | null; score: number | null; category: string | null }[];
}

/**
 * The console's view of a dataset's re-run: the named run, else the active one, else the newest finished
 * one (so a completed re-run stays on the page after a reload), with its per-trace results: each grader's
 * label as the trace holds it now (at most 1,000 trace × grader rows).
 */
export async function getRerunWithResults(db: Database, organizationId: string, datasetId: string, runId?: string) {
  const dataset = await getDatasetWithGraders(db, organizationId, datasetId);
  const subject = { kind: "dataset" as const, id: dataset.id };
  const { run } = await getSubjectRerun(db, organizationId, subject, runId);
  const shown = run ?? (await findLatestRerun(db, organizationId, subject).then((r) => (r ? toRerunResponse(r) : null)));
  if (!shown) return { run: null, results: [] as TRerunTraceResult[] };
  const rows = await selectRerunResults(db, organizationId, shown.id, RESULT_ROWS);
  const byTrace = new Map<string, TRerunTraceResult>();
  for (const r of rows) {
    const entry = byTrace.get(r.trace_id) ?? { traceId: r.trace_id, traceName: r.trace_name, graders: [] };
    entry.graders.push({ graderId: r.grader_id, graderName: r.grader_name, graded: r.graded, label: r.graded ? r.label : null, reason: r.label_reason ?? r.failure_diagnostic,
      score: r.graded ? r.score : null, category: r.graded ? r.category : null });
    byTrace.set(r.trace_id, entry);
  }
  return { run: shown, results: [...byTrace.values()] };
}

/** How often a waiting caller reads a re-run again. */
const POLL_MS = 1000;
const finished = (run: TGraderRerun) => run.status === "completed" || run.status === "errored";

/**
 * Reads a started re-run again every second until it finishes or `waitSeconds` pass (the agents' re-run
 * tools wait for their result, docs/mcp.md); answers the run as last read and how long was waited.
 */
export async function waitForRerun(started: TGraderRerun, read: (runId: string) => Promise<TGraderRerun | null>, waitSeconds: number): Promise<{ run: TGraderRerun; waitedS: number }> {
  let run = started;
  const t0 = Date.now();
  const deadline = t0 + waitSeconds * 1000;
  while (!finished(run) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
    run = (await read(run.id)) ?? run;
  }
  return { run, waitedS: Math.round((Date.now() - t0) / 1000) };
}

/** startRerun, then waiting up to `waitSeconds` for the run to finish. */
export async function rerunDatasetAndWait(db: Database, organizationId: string, datasetId: string, graderIds: string[] | undefined, waitSeconds: number) {
  const started = await startRerun(db, organizationId, datasetId, graderIds);
  const waited = await waitForRerun(started.run, async (runId) => (await getRerun(db, organizationId, datasetId, runId)).run, waitSeconds);
  return { ...waited, joinedExisting: started.joinedExisting };
}
