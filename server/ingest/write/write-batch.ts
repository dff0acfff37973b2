// One request's write: the traces, the function executions, the spans, then the completion check and its outbox rows,
// in a single short transaction (docs/architecture.md, "Ingestion and completion": checked and transitioned in one
// transaction under a row lock). One list of statements on every database (writeSteps); retried on deadlock and
// serialization failures, which concurrent writers can still provoke.
import type { SqlClient, SqlDatabase, TBatchStatement } from "../../db/sql.ts";
import { hasCitus } from "../../db/citus.ts";
import { insertCompletionEventsStatement } from "../completion/completion.queries.ts";
import type { TSpanRow } from "./span-rows.ts";
import type { TTraceRow } from "./trace-rows.ts";
import { countAndCompleteStatement, writeSpansAndCompleteStatement } from "./write-complete.queries.ts";
import {
  insertFunctionExecutionsStatement,
  newWriteStamp,
  upsertSpansStatement,
  upsertTracesStatement,
  type TFunctionExecutionRow,
  type TSpanArrays,
  type TWriteStamp,
} from "./write.queries.ts";

/** A row with its JSON text, serialized once (and reused by retries). */
export interface TSerialized<R> {
  row: R;
  json: string;
}

/** A span row's JSON without raw_span, and raw_span's JSON text apart (write.queries.ts, upsertSpansStatement). */
export interface TSerializedSpan extends TSerialized<TSpanRow> {
  raw: string;
}

export interface TWritePlan {
  /** Sorted by id, one per id. */
  traces: TSerialized<TTraceRow>[];
  /** Sorted by id, one per id. */
  spans: TSerializedSpan[];
  functionExecutions: TSerialized<TFunctionExecutionRow>[];
}

const jsonArray = (rows: TSerialized<unknown>[]) => `[${rows.map((r) => r.json).join(",")}]`;
const spanArrays = (rows: TSerializedSpan[]): TSpanArrays => ({ rowsJson: jsonArray(rows), rawJson: `[${rows.map((r) => r.raw).join(",")}]` });
const traceIdsOf = (rows: TSerializedSpan[]): string[] => [...new Set(rows.map((r) => r.row.trace_id))];
const finalSpanIdsOf = (rows: TSerializedSpan[]): string[] => rows.filter((r) => r.row.is_final).map((r) => r.row.id);

/**
 * Traces per statement: the traces upsert passes each trace's fields as parameters (a VALUES list, which Citus
 * routes to one shard whole), and PostgreSQL takes at most 65,535 parameters in one statement.
 */
export const MAX_TRACES_PER_STATEMENT = 1000;

function chunkByCount<T>(rows: T[], size: number = MAX_TRACES_PER_STATEMENT): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * Spans are written one statement per request, except that a statement's JSON stays under this size:
 * PostgreSQL expands the parameter several times over while parsing it. PGlite does that inside its
 * WebAssembly heap, which never gives memory back, so there a statement stays smaller: an 8 MB request
 * written in 2 MB statements left ~100 MB more heap behind, and 500 KB statements instead of 1 MB kept
 * the server's peak 15–60 MB lower again, under the 600 MB target (bench/README.md, "Session 6"). An
 * ordinary request (~640 KB of rows), written as one batch, still goes in one statement of up to 1 MB:
 * on PGlite's thread, its second statement had cost a fifth of the throughput (0.74 against 0.91 of the
 * floor; bench/README.md, "Session 8"), and a batch's size is bounded (MAX_BATCH_JSON_BYTES).
 */
export const MAX_STATEMENT_JSON_BYTES = 2_000_000;
export const MAX_PGLITE_STATEMENT_JSON_BYTES = 500_000;
export const MAX_PGLITE_BATCH_STATEMENT_JSON_BYTES = 1_000_000;

/**
 * A batch carries every run of its spans at once (built, and on PGlite encoded and handed to the database's
 * thread, before the first is written). Past this size a request is written one run at a time instead, as a
 * transaction, so that an 8 MB request holds one run's copies at a time: batched whole, the embedded
 * database's server peaked at 618 MB with 8 MB requests (bench/README.md, "Session 8").
 */
export const MAX_BATCH_JSON_BYTES = 2_000_000;

/** A row's share of a statement: its JSON and, for a span, its raw document's text. */
const rowSize = (row: { json: string; raw?: string }) => row.json.length + (row.raw?.length ?? 0);
const rowBytes = (rows: Array<{ json: string; raw?: string }>) => rows.reduce((n, row) => n + rowSize(row), 0);

/** Consecutive runs of rows (order kept, so row locks are still taken in id order) under the size cap. */
export function chunkBySize<T extends { json: string; raw?: string }>(rows: T[], maxBytes: number = MAX_STATEMENT_JSON_BYTES): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const row of rows) {
    const bytes = rowSize(row);
    if (current.length > 0 && size + bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(row);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export interface TWriteOutcome {
  /** Traces dropped (now or earlier): their spans in this request were discarded. */
  droppedTraceIds: Set<string>;
  completedTraceIds: string[];
  storedFunctionExecutionIds: Set<string>;
}

const RETRYABLE = new Set(["40P01", "40001"]);
const MAX_ATTEMPTS = 5;

/** Runs inside the write transaction, after the rows are written (see TIngestOptions.afterWrite). */
export type TAfterWrite = (tx: SqlClient, traceIds: string[], stamp: TWriteStamp) => Promise<void>;

export async function writeBatch(db: SqlDatabase, organizationId: string, plan: TWritePlan, afterWrite?: TAfterWrite): Promise<TWriteOutcome> {
  if (plan.traces.length === 0 && plan.spans.length > 0) throw new Error("spans without their traces in the write plan");
  const pglite = db.kind === "pglite";
  const distributed = await isDistributed(db);
  // The usual request (up to MAX_BATCH_JSON_BYTES of spans, no afterWrite) goes as one batch: none of its statements
  // needs another's answer. A larger one goes one statement at a time, so that only one run's copies are held.
  const atOnce = afterWrite === undefined && rowBytes(plan.spans) <= MAX_BATCH_JSON_BYTES;
  const maxStatementBytes = !pglite ? MAX_STATEMENT_JSON_BYTES : atOnce ? MAX_PGLITE_BATCH_STATEMENT_JSON_BYTES : MAX_PGLITE_STATEMENT_JSON_BYTES;
  for (let attempt = 1; ; attempt++) {
    try {
      const runs = chunkBySize(plan.spans, maxStatementBytes);
      const steps = writeSteps(organizationId, plan, runs, newWriteStamp(), distributed, afterWrite !== undefined);
      if (atOnce && !distributed) return outcomeOf(steps, await db.batch(steps.statements));
      return await db.transaction((tx) => runSteps(tx, organizationId, steps, atOnce, afterWrite));
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/**
 * One write attempt's statements, in order (the same on every database but for the span statements): the traces
 * (row-locking each, in id order), the function executions, then the spans in runs under the size cap, the last
 * statement completing the request's traces. On PostgreSQL and PGlite each run is one statement that also counts its
 * final spans, and the last run's also completes and writes the outbox rows (write-complete.queries.ts); with an
 * afterWrite, which must see every span and run before completion, the completion is a statement of no spans of its
 * own. On Citus, which plans no INSERT inside a CTE on one shard, the runs are plain upserts and one statement then
 * counts and completes; the outbox rows follow it (runSteps).
 */
interface TWriteSteps {
  stamp: TWriteStamp;
  statements: TBatchStatement[];
  /** The first `traceStatements` statements are the traces upserts; their rows are `{ id, dropped }`. */
  traceStatements: number;
  /** Index of the function executions insert, if any. */
  functionStatement: number | undefined;
  /** Whether the last statement is the completion statement (the plan has traces). */
  completes: boolean;
  distributed: boolean;
}

function writeSteps(
  organizationId: string,
  plan: TWritePlan,
  runs: TSerializedSpan[][],
  stamp: TWriteStamp,
  distributed: boolean,
  completeApart: boolean,
): TWriteSteps {
  const ids = plan.traces.map((t) => t.row.id);
  const traces = chunkByCount(plan.traces).map((chunk) => upsertTracesStatement(organizationId, chunk.map((t) => t.row), stamp));
  const functions =
    plan.functionExecutions.length > 0 ? [insertFunctionExecutionsStatement(organizationId, jsonArray(plan.functionExecutions))] : [];
  const spans: TBatchStatement[] = [];
  if (ids.length > 0 && distributed) {
    spans.push(...runs.map((run) => upsertSpansStatement(organizationId, spanArrays(run), traceIdsOf(run), stamp)));
    spans.push(countAndCompleteStatement(organizationId, finalSpanIdsOf(plan.spans), ids, stamp));
  } else if (ids.length > 0) {
    // Completion skips dropped traces itself, so every trace of the request is a candidate.
    // `completeApart` (an afterWrite runs between the spans and the completion), or no spans: a last run of none.
    const completing = completeApart || runs.length === 0 ? [...runs, []] : runs;
    spans.push(
      ...completing.map((run, i) => {
        const last = i === completing.length - 1;
        return writeSpansAndCompleteStatement(organizationId, spanArrays(run), traceIdsOf(run), last ? ids : traceIdsOf(run), stamp, last);
      }),
    );
  }
  return {
    stamp,
    statements: [...traces, ...functions, ...spans],
    traceStatements: traces.length,
    functionStatement: functions.length > 0 ? traces.length : undefined,
    completes: ids.length > 0,
    distributed,
  };
}

function outcomeOf(steps: TWriteSteps, results: unknown[][]): TWriteOutcome {
  const traces = results.slice(0, steps.traceStatements).flat() as Array<{ id: string; dropped: boolean }>;
  const functions = steps.functionStatement === undefined ? [] : (results[steps.functionStatement] as Array<{ id: string }>);
  const completed = steps.completes ? (results[results.length - 1] as Array<{ id: string }>) : [];
  return {
    droppedTraceIds: new Set(traces.filter((t) => t.dropped).map((t) => t.id)),
    completedTraceIds: completed.map((c) => c.id),
    storedFunctionExecutionIds: new Set(functions.map((f) => f.id)),
  };
}

/**
 * The steps in a transaction: `atOnce`, pipelined (one round trip on Citus, as db.batch is elsewhere); else one at
 * a time, the afterWrite (given the request's traces that are not dropped) just before the completion statement. On
 * Citus the outbox rows then follow as `INSERT … VALUES` of the traces completed: trace_events takes its id from a
 * sequence, which Citus evaluates on the coordinator for a VALUES list but refuses in an `INSERT … SELECT` it would
 * push down to the shard.
 */
async function runSteps(tx: SqlClient, organizationId: string, steps: TWriteSteps, atOnce: boolean, afterWrite?: TAfterWrite): Promise<TWriteOutcome> {
  const run = ({ statement, prepareAs }: TBatchStatement) => tx.query(statement, { prepareAs });
  let results: unknown[][];
  if (atOnce) results = await Promise.all(steps.statements.map(run));
  else {
    results = [];
    for (const [index, statement] of steps.statements.entries()) {
      if (afterWrite && steps.completes && index === steps.statements.length - 1) {
        const dropped = outcomeOf(steps, results).droppedTraceIds;
        const traces = results.slice(0, steps.traceStatements).flat() as Array<{ id: string }>;
        const candidates = traces.map((t) => t.id).filter((id) => !dropped.has(id));
        if (candidates.length > 0) await afterWrite(tx, candidates, steps.stamp);
      }
      results.push(await run(statement));
    }
  }
  const outcome = outcomeOf(steps, results);
  if (steps.distributed && outcome.completedTraceIds.length > 0) await run(insertCompletionEventsStatement(organizationId, outcome.completedTraceIds));
  return outcome;
}

/** Whether the database is a Citus coordinator, asked once per database (an error is asked again next time). */
const distributed = new WeakMap<SqlDatabase, Promise<boolean>>();
function isDistributed(db: SqlDatabase): Promise<boolean> {
  if (db.kind !== "postgres") return Promise.resolve(false);
  let known = distributed.get(db);
  if (!known) {
    known = hasCitus(db);
    distributed.set(db, known);
    known.catch(() => distributed.delete(db));
  }
  return known;
}

/** PostgreSQL's SQLSTATE of a driver error (pg and PGlite both expose it as `code`). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Errors caused by the data of some row (a value PostgreSQL cannot store), not by the database. */
export function isDataError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith("22") || state.startsWith("54"));
}
