// The one ingestion service behind the four doors (REST externalSpans, externalTraces,
// functions/{id}/traces, and OTLP carriers). Items are validated by the caller (payloads/); this writes
// them with set-based SQL in one transaction and reports per-item rejections.
import type { TAuthContext } from "../auth/auth.schemas.ts";
import type { Database } from "../db.ts";
import { pricesForIngest } from "../insight/cost/price-book.ts";
import type { TIngestItem, TIngestResult, TRejection } from "./ingest.schemas.ts";
import { redactIngestItems } from "./redact-items.ts";
import { functionNotFound, preparePlan } from "./write/prepare-plan.ts";
import { isDataError, writeBatch, type TAfterWrite } from "./write/write-batch.ts";

export interface TIngestOptions {
  /**
   * How many items are written at once when a batch has to be split (REPRISE_OTLP_INGEST_CONCURRENCY).
   * The normal path writes the whole batch as one set-based transaction.
   */
  concurrency?: number;
  /**
   * Runs inside the write transaction after the rows are written, with the canonical ids of the traces
   * written (the native OpenTelemetry door records its traces' arrival times there).
   */
  afterWrite?: TAfterWrite;
}

/**
 * Stores a batch of validated items. Answers only after everything accepted is committed. Throws only
 * for failures of the database itself (unreachable, overloaded: the caller answers 503); a value
 * PostgreSQL refuses rejects just the items that carry it.
 */
export async function ingestBatch(db: Database, auth: TAuthContext, items: TIngestItem[], options: TIngestOptions = {}): Promise<TIngestResult> {
  const org = auth.organizationId;
  await redactIngestItems(db, org, items);
  // The one place ingestion reads the price table (cached per organization; docs/cost.md, "Cost").
  const prepared = preparePlan(org, items, await pricesForIngest(db, org));
  const { plan, rejected } = prepared;
  const empty = plan.traces.length === 0 && plan.spans.length === 0 && plan.functionExecutions.length === 0;
  let stored: Set<string> = new Set();
  if (!empty) {
    try {
      stored = (await writeBatch(db.sql, org, plan, options.afterWrite)).storedFunctionExecutionIds;
    } catch (error) {
      if (!isDataError(error)) throw error;
      return isolate(db, auth, items, rejected, error, options);
    }
  }
  const result: TIngestResult = { traceIds: traceIdMap(), functionExecutionIds: [], rejected };
  for (const [index, [source, id]] of prepared.traceOf) if (!rejected.has(index)) result.traceIds[source] = id;
  for (const [index, executionId] of prepared.functionExecutionOf) {
    if (stored.has(executionId)) result.functionExecutionIds.push(executionId);
    else rejected.set(index, functionNotFound((items[index] as { functionId: string }).functionId));
  }
  return result;
}

/** Keyed by SDK ids: a null prototype keeps a source id such as "__proto__" an ordinary key. */
const traceIdMap = (): Record<string, string> => Object.create(null) as Record<string, string>;

/**
 * PostgreSQL refused a value somewhere in the batch: write the items one by one, with bounded
 * concurrency, so only the items that carry it are rejected (never lose the rest of the batch).
 */
async function isolate(
  db: Database,
  auth: TAuthContext,
  items: TIngestItem[],
  rejected: Map<number, TRejection>,
  error: unknown,
  options: TIngestOptions,
): Promise<TIngestResult> {
  const concurrency = options.concurrency ?? 8;
  const result: TIngestResult = { traceIds: traceIdMap(), functionExecutionIds: [], rejected };
  const pending = items.map((_, i) => i).filter((i) => !rejected.has(i));
  if (pending.length <= 1) {
    for (const i of pending) rejected.set(i, { code: "unstorable", message: `payload cannot be stored: ${(error as Error).message}` });
    return result;
  }
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const index = pending[next++];
      const one = await ingestBatch(db, auth, [items[index]], { ...options, concurrency: 1 });
      Object.assign(result.traceIds, one.traceIds);
      result.functionExecutionIds.push(...one.functionExecutionIds);
      const reason = one.rejected.get(0);
      if (reason) rejected.set(index, reason);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  return result;
}
