// Recomputing costs over a time range after a price changed (docs/cost.md, "Recomputing"): a job walks the
// range's traces in pages, prices their LLM spans with the prices current when it runs, writes the costs that
// changed and each trace's sum, and records its progress on the cost_recomputes row.
import type { Database } from "../../db/client.ts";
import { badRequest, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { logger } from "../../logger.ts";
import {
  insertRecompute,
  restartRecompute,
  selectRecentRecomputes,
  selectRecompute,
  selectSpanUsage,
  selectTracePageInRange,
  updateRecompute,
  writeCosts,
  type TRecomputeRow,
} from "./cost.queries.ts";
import type { TRecompute } from "./cost.schemas.ts";
import { readPrices } from "./price-book.ts";
import { spanCost } from "./pricing.ts";
import { recomputeJobClient, RECOMPUTE_QUEUE, type TRecomputeJob } from "./recompute.queue.ts";

/** Traces per transaction of a recompute. */
export const RECOMPUTE_PAGE = 200;

export function toRecomputeResponse(r: TRecomputeRow): TRecompute {
  return {
    id: r.id,
    from: r.rangeFrom.toISOString(),
    to: r.rangeTo.toISOString(),
    status: r.status as TRecompute["status"],
    tracesTotal: r.tracesTotal,
    tracesDone: r.tracesDone,
    spansPriced: r.spansPriced,
    spansUnpriced: r.spansUnpriced,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** Records a recompute of [from, to) and queues its job in the same transaction. */
export async function startRecompute(db: Database, organizationId: string, userId: string | null, from: Date, to: Date): Promise<TRecompute> {
  if (!(from < to)) throw badRequest("from must be before to");
  const client = await recomputeJobClient(db);
  const id = newId();
  const row = await db.transaction(async (tx) => {
    const created = await insertRecompute(tx, organizationId, id, from, to, userId, new Date());
    await client.insert<TRecomputeJob>(RECOMPUTE_QUEUE, [{ id, data: { organizationId, recomputeId: id }, singletonKey: organizationId }], tx);
    return created;
  });
  return toRecomputeResponse(row);
}

export async function getRecompute(db: Database, organizationId: string, id: string): Promise<TRecompute> {
  const row = await selectRecompute(db, organizationId, id);
  if (!row) throw notFound(`Recompute ${id}`);
  return toRecomputeResponse(row);
}

export async function findRecomputes(db: Database, organizationId: string): Promise<TRecompute[]> {
  return (await selectRecentRecomputes(db, organizationId, 20)).map(toRecomputeResponse);
}

/** The job: the whole range, page by page, each page one transaction. */
export async function runRecompute(db: Database, job: TRecomputeJob): Promise<void> {
  const { organizationId, recomputeId } = job;
  const recompute = await selectRecompute(db, organizationId, recomputeId);
  if (!recompute || recompute.status === "done") return;
  await restartRecompute(db, organizationId, recomputeId);
  const prices = await readPrices(db, organizationId);
  let after: { startedAt: string; id: string } | null = null;
  try {
    for (;;) {
      const page = await selectTracePageInRange(db, organizationId, recompute.rangeFrom, recompute.rangeTo, after, RECOMPUTE_PAGE);
      if (page.length === 0) break;
      const traceIds = page.map((t) => t.id);
      await db.transaction(async (tx) => {
        const spans = await selectSpanUsage(tx, organizationId, traceIds);
        let priced = 0;
        let unpriced = 0;
        const costs = spans.map((s) => {
          const result = spanCost(prices, s);
          if (result.kind === "priced") priced++;
          else if (result.kind === "unpriced") unpriced++;
          return { id: s.id, cost: result.kind === "priced" ? result.costUsd : null };
        });
        await writeCosts(tx, organizationId, traceIds, costs);
        await updateRecompute(tx, organizationId, recomputeId, { tracesDone: page.length, spansPriced: priced, spansUnpriced: unpriced });
      });
      after = page[page.length - 1]!;
    }
    await updateRecompute(db, organizationId, recomputeId, { status: "done", finishedAt: new Date() });
  } catch (error) {
    logger.error("cost recompute failed", { organizationId, recomputeId, error });
    await updateRecompute(db, organizationId, recomputeId, { status: "failed", error: (error as Error).message ?? String(error) });
    throw error;
  }
}
