// Backfills (docs/graders.md, "Online evaluation"; docs/api/graders.md, "Backfills"): a grader run over its
// trace function's past traces in a time range, with the grader's sample and filter. First an estimate (how
// many traces, the judge's tokens and their cost), then a durable run: its items and grading jobs are written
// in one transaction, the grading worker records progress (done/total) as for a re-run, and a cancel stops it.
// A trace already labelled at the grader's current version is left out, and the worker checks again before
// grading, so no trace is graded twice for one version.
import type { Database } from "../../db/client.ts";
import { AppError, notFound } from "../../errors.ts";
import { newId, uuidV5 } from "../../ids.ts";
import { recordAuditEvents } from "../../auth/audit/audit.service.ts";
import type { TAuditActor } from "../../auth/audit/audit.schemas.ts";
import { ZJudgeConfig } from "../../graders/grader-config.schemas.ts";
import { findGraderRowsByIds, type GraderRow } from "../../graders/graders.queries.ts";
import { readPrices } from "../../insight/cost/price-book.ts";
import { GRADING_QUEUE, gradingJobClient } from "../grading.queues.ts";
import * as q from "./backfill.queries.ts";
import type { TBackfill, TBackfillEstimate, TBackfillRange } from "./backfill.schemas.ts";
import { estimateJudge, promptCaps } from "./judge-estimate.ts";

export function toBackfillResponse(row: q.BackfillRow): TBackfill {
  const iso = (d: Date | string) => new Date(d).toISOString();
  return {
    id: row.id,
    graderId: row.graderId,
    graderVersion: row.graderVersion,
    from: iso(row.startedFrom),
    to: iso(row.startedTo),
    status: row.status as TBackfill["status"],
    progress: { done: row.completedTraces, total: row.totalTraces },
    tracesGraded: row.tracesGraded,
    estimate: row.estimate as TBackfillEstimate,
    error: row.error,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    finishedAt: row.finishedAt ? iso(row.finishedAt) : null,
  };
}

/** The organization's grader; another organization's or an unknown id is a 404, an archived grader a 400. */
async function getActiveGrader(db: Database, organizationId: string, graderId: string): Promise<GraderRow> {
  const [grader] = await findGraderRowsByIds(db, organizationId, [graderId.toLowerCase()]);
  if (!grader) throw notFound("Grader");
  if (grader.status !== "active") throw new AppError("bad_request", `Grader ${grader.id} is archived; restore it before a backfill.`);
  return grader;
}

async function estimateFor(db: Database, organizationId: string, grader: GraderRow, range: TBackfillRange): Promise<TBackfillEstimate> {
  const judge = grader.kind === "llm_judge" ? ZJudgeConfig.safeParse(grader.config) : null;
  const caps = judge?.success ? promptCaps(judge.data) : { spans: 0, inputChars: 0, outputChars: 0 };
  const stats = await q.selectCandidateStats(db, organizationId, grader.id, range.from, range.to, caps);
  const online = (grader.config as { online?: { sampleRate?: number } }).online;
  return {
    graderId: grader.id,
    graderVersion: grader.version,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    traces: stats.traces,
    alreadyGraded: stats.alreadyGraded,
    sampleRate: online?.sampleRate ?? 100,
    judge: judge?.success ? estimateJudge(judge.data, stats, await readPrices(db, organizationId)) : null,
  };
}

/** What a backfill over the range would grade and cost; writes nothing. */
export async function estimateBackfill(db: Database, organizationId: string, graderId: string, range: TBackfillRange): Promise<{ estimate: TBackfillEstimate }> {
  const grader = await getActiveGrader(db, organizationId, graderId);
  return { estimate: await estimateFor(db, organizationId, grader, range) };
}

/**
 * Starts a backfill. The grader's active backfill makes this a 409 naming it (cancel it or wait). The run
 * records the estimate it started from; its total is the traces snapshotted in the same transaction.
 */
export async function startBackfill(db: Database, organizationId: string, actor: TAuditActor, graderId: string, range: TBackfillRange): Promise<{ backfill: TBackfill }> {
  const grader = await getActiveGrader(db, organizationId, graderId);
  const estimate = await estimateFor(db, organizationId, grader, range);
  // Ready before the transaction: on PGlite a transaction holds the only connection.
  const jobs = await gradingJobClient(db);
  return db.transaction(async (tx) => {
    const at = new Date();
    const run = await q.insertBackfillIfNoneActive(tx, {
      id: newId(), organizationId, graderId: grader.id, graderVersion: grader.version, from: range.from, to: range.to, estimate, requestedBy: actor.userId,
    });
    if (!run) {
      const active = await q.findActiveBackfill(tx, organizationId, grader.id);
      throw new AppError("conflict", `Grader ${grader.id} already has a backfill in progress (${active?.id ?? "just started"}); cancel it or wait until it ends.`,
        { fields: active ? { existingId: active.id } : {} });
    }
    const traceIds = await q.insertBackfillItems(tx, { id: run.id, organizationId, graderId: grader.id, from: range.from, to: range.to }, at);
    await jobs.insert(GRADING_QUEUE, traceIds.map((traceId) => ({
      id: uuidV5(`backfill:${run.id}:${organizationId}:${traceId}:${grader.id}`),
      singletonKey: `${organizationId}:${traceId}:${grader.id}`,
      data: { organizationId, traceId, graderId: grader.id, runId: run.id, oncePerVersion: true },
    })), tx);
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "grader.backfill_started", targetType: "grader", targetId: grader.id, before: null,
      after: { backfillId: run.id, from: estimate.from, to: estimate.to, graderVersion: grader.version, traces: traceIds.length, estimate },
    }]);
    return { backfill: toBackfillResponse((await q.findBackfill(tx, organizationId, grader.id, run.id))!) };
  });
}

/** The grader's named backfill, or its newest (null when it never had one). Unknown or foreign ids are 404. */
export async function getBackfill(db: Database, organizationId: string, graderId: string, runId?: string): Promise<{ backfill: TBackfill | null }> {
  const [grader] = await findGraderRowsByIds(db, organizationId, [graderId.toLowerCase()]);
  if (!grader) throw notFound("Grader");
  const row = await q.findBackfill(db, organizationId, grader.id, runId?.toLowerCase());
  if (!row && runId) throw notFound("Backfill");
  return { backfill: row ? toBackfillResponse(row) : null };
}

/** Cancels an active backfill: traces not yet graded are not graded. Cancelling a cancelled one is a no-op; a finished one is a 409. */
export async function cancelBackfill(db: Database, organizationId: string, actor: TAuditActor, graderId: string, runId: string): Promise<{ backfill: TBackfill }> {
  const { backfill } = await getBackfill(db, organizationId, graderId, runId);
  if (backfill!.status === "cancelled") return { backfill: backfill! };
  return db.transaction(async (tx) => {
    const row = await q.cancelBackfillRow(tx, organizationId, backfill!.graderId, backfill!.id, new Date());
    if (!row) throw new AppError("conflict", `Backfill ${backfill!.id} has already ended (${backfill!.status}); there is nothing to cancel.`);
    await recordAuditEvents(tx, organizationId, actor, [{
      kind: "grader.backfill_cancelled", targetType: "grader", targetId: row.graderId,
      before: { backfillId: row.id, status: backfill!.status, progress: backfill!.progress }, after: { backfillId: row.id, status: "cancelled", progress: { done: row.completedTraces, total: row.totalTraces } },
    }]);
    return { backfill: toBackfillResponse(row) };
  });
}
