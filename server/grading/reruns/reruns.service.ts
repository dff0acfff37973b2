// Dataset grader re-runs (http-interface.md, "POST/GET /api/sdk/datasets/{id}/rerunGraders").
// States pending → running → completed | errored. One active run per dataset, enforced by the
// database (partial unique index): a request with the same graders joins it, a different one is 400.
// The run is durable: its (trace, grader) items and grading jobs are written in one transaction.
import type { Database } from "../../db/client.ts";
import { AppError, badRequest, notFound } from "../../errors.ts";
import { isUuid, newId } from "../../ids.ts";
import { gradingJobs } from "../grading.service.ts";
import { GRADING_QUEUE, gradingJobClient } from "../grading.queues.ts";
import { findActiveRerun, findRerun, insertRerunIfNoneActive, insertRerunItems, selectDatasetWithGraders, type RerunRow } from "./reruns.queries.ts";
import type { TGraderRerun } from "./reruns.schemas.ts";

export function toRerunResponse(row: RerunRow): TGraderRerun {
  const graderIds = row.graderIds;
  const base = { id: row.id, datasetId: row.datasetId, status: row.status as TGraderRerun["status"], graderIds, createdAt: new Date(row.createdAt).toISOString(), updatedAt: new Date(row.updatedAt).toISOString() };
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
function selectGraders(assigned: { id: string; status: string }[], requested: string[] | undefined): string[] {
  if (assigned.length === 0) throw badRequest("The dataset has no graders. Assign graders first (POST /api/sdk/datasets/{id}/graders).");
  if (!requested) {
    const active = assigned.filter((g) => g.status === "active").map((g) => g.id);
    if (active.length === 0) throw badRequest("Every grader assigned to the dataset is archived; there is nothing to run.");
    return active.sort();
  }
  const byId = new Map(assigned.map((g) => [g.id, g]));
  const wanted = [...new Set(requested.map((id) => id.toLowerCase()))];
  const unassigned = wanted.filter((id) => !byId.has(id));
  if (unassigned.length > 0) throw badRequest(`Not assigned to the dataset: ${unassigned.join(", ")}.`);
  const archived = wanted.filter((id) => byId.get(id)!.status !== "active");
  if (archived.length > 0) throw badRequest(`Archived graders cannot run: ${archived.join(", ")}.`);
  return wanted.sort();
}

const sameSelection = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((id, i) => id === [...b].sort()[i]);

export async function startRerun(db: Database, organizationId: string, datasetId: string, requested?: string[]): Promise<{ run: TGraderRerun; joinedExisting: boolean }> {
  const dataset = await getDatasetWithGraders(db, organizationId, datasetId);
  const graderIds = selectGraders(dataset.graders, requested);
  // Ready before the transaction: on PGlite a transaction holds the only connection.
  const jobs = await gradingJobClient(db);
  return db.transaction(async (tx) => {
    const inserted = await insertRerunIfNoneActive(tx, { id: newId(), organizationId, datasetId: dataset.id, graderIds });
    if (!inserted) {
      // Another run is active (its insert committed first; ON CONFLICT waited for it).
      const active = await findActiveRerun(tx, organizationId, dataset.id);
      if (!active) throw new AppError("service_unavailable", "The dataset's active re-run changed while starting; retry.", { retryAfter: 1 });
      if (!sameSelection(active.graderIds, graderIds)) {
        throw badRequest(`A re-run with different graders (${active.graderIds.join(", ")}) is active for this dataset (run ${active.id}); wait until it ends.`);
      }
      return { run: toRerunResponse(active), joinedExisting: true };
    }
    const traceIds = await insertRerunItems(tx, { ...inserted, organizationId });
    const requests = traceIds.map((traceId) => ({ organizationId, traceId, graderIds, runId: inserted.id, dedupeKey: `rerun:${inserted.id}` }));
    await jobs.insert(GRADING_QUEUE, gradingJobs(requests), tx);
    const run = (await findRerun(tx, organizationId, dataset.id, inserted.id))!;
    return { run: toRerunResponse(run), joinedExisting: false };
  });
}

/** The named run, or the dataset's active run (null when none). Unknown or foreign ids are 404. */
export async function getRerun(db: Database, organizationId: string, datasetId: string, runId?: string): Promise<{ run: TGraderRerun | null }> {
  const dataset = await getDatasetWithGraders(db, organizationId, datasetId);
  if (runId !== undefined) {
    const row = isUuid(runId) ? await findRerun(db, organizationId, dataset.id, runId) : null;
    if (!row) throw notFound("Re-run");
    return { run: toRerunResponse(row) };
  }
  const active = await findActiveRerun(db, organizationId, dataset.id);
  return { run: active ? toRerunResponse(active) : null };
}
