// One request's write: traces, then spans, then function executions, then the completion check, in a
// single short transaction (docs/architecture.md, "Ingestion and completion": checked and transitioned in one transaction under a row lock).
// Retried on deadlock and serialization failures, which concurrent writers can still provoke.
import type { SqlClient, SqlDatabase, TBatchStatement } from "../../db/sql.ts";
import { hasCitus } from "../../db/citus.ts";
import { completeReadyTracesStatement, insertCompletionEventsStatement, recordCompletionEventsStatement } from "../completion/completion.queries.ts";
import type { TSpanRow } from "./span-rows.ts";
import type { TTraceRow } from "./trace-rows.ts";
import { writeSpansAndCompleteStatement } from "./write-complete.queries.ts";
import {
  countFinalSpansStatement,
  deleteSpansOfTraces,
  insertFunctionExecutions,
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
 * The statements of a write, in order: the traces (row-locking each, in id order), the spans in runs under the
 * size cap, then the count of spans that became final. None reads an earlier one's answer, so they can go as one
 * batch.
 */
function writeStatements(organizationId: string, plan: TWritePlan, spanRuns: TSerializedSpan[][], stamp: TWriteStamp): TBatchStatement[] {
  const finals = finalSpanIdsOf(plan.spans);
  return [
    ...chunkByCount(plan.traces).map((chunk) => upsertTracesStatement(organizationId, chunk.map((t) => t.row), stamp)),
    ...spanRuns.map((run) => upsertSpansStatement(organizationId, spanArrays(run), traceIdsOf(run), stamp)),
    ...(finals.length > 0 ? [countFinalSpansStatement(organizationId, finals, stamp)] : []),
  ];
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
  const pglite = db.kind === "pglite";
  const maxStatementBytes = pglite ? MAX_PGLITE_STATEMENT_JSON_BYTES : MAX_STATEMENT_JSON_BYTES;
  const maxBatchStatementBytes = pglite ? MAX_PGLITE_BATCH_STATEMENT_JSON_BYTES : MAX_STATEMENT_JSON_BYTES;
  const atOnce = writableAtOnce(plan, afterWrite);
  for (let attempt = 1; ; attempt++) {
    try {
      if (atOnce) return await writeAtOnce(db, organizationId, plan, maxBatchStatementBytes);
      return await db.transaction((tx) => writeOnce(tx, organizationId, plan, maxStatementBytes, afterWrite));
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(sqlState(error) ?? "")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/**
 * The usual request (traces and spans up to MAX_BATCH_JSON_BYTES, nothing dropped, no function executions, no afterWrite) needs
 * nothing from one statement's answer to write the next: its statements (the traces, then the spans with
 * completion, writeAtOnce) go to the database as one batch, one round trip on
 * PostgreSQL and one message to PGlite's thread, which then never waits on the server's thread while it
 * holds the transaction (docs/architecture.md, "Batches").
 */
function writableAtOnce(plan: TWritePlan, afterWrite?: TAfterWrite): boolean {
  return (
    afterWrite === undefined &&
    rowBytes(plan.spans) <= MAX_BATCH_JSON_BYTES &&
    plan.traces.length > 0 &&
    plan.functionExecutions.length === 0 &&
    !plan.traces.some((t) => t.row.dropped)
  );
}

async function writeAtOnce(db: SqlDatabase, organizationId: string, plan: TWritePlan, maxStatementBytes: number): Promise<TWriteOutcome> {
  // Completion skips dropped traces itself, so every trace of the request is a candidate.
  const stamp = newWriteStamp();
  const ids = plan.traces.map((t) => t.row.id);
  const runs = chunkBySize(plan.spans, maxStatementBytes);
  const traceChunks = Math.ceil(plan.traces.length / MAX_TRACES_PER_STATEMENT);
  // Two statements (the traces upsert, then the rest in one) on PostgreSQL and PGlite; on Citus, where an INSERT in
  // a CTE is not a router plan, one router statement per step (write-complete.queries.ts). A request of several
  // runs of spans (over the statement size) also goes step by step.
  if (await isDistributed(db)) return writeAtOnceDistributed(db, organizationId, plan, runs, stamp);
  const folded = runs.length <= 1;
  const statements = folded
    ? [
        ...chunkByCount(plan.traces).map((chunk) => upsertTracesStatement(organizationId, chunk.map((t) => t.row), stamp)),
        writeSpansAndCompleteStatement(organizationId, spanArrays(runs[0] ?? []), traceIdsOf(runs[0] ?? []), ids, stamp),
      ]
    : [
        ...writeStatements(organizationId, plan, runs, stamp),
        completeReadyTracesStatement(organizationId, ids, stamp),
        recordCompletionEventsStatement(organizationId, ids, stamp),
      ];
  const results = await db.batch(statements);
  const traces = results.slice(0, traceChunks).flat() as Array<{ id: string; dropped: boolean }>;
  const completed = results[folded ? statements.length - 1 : statements.length - 2] as Array<{ id: string }>;
  return {
    droppedTraceIds: new Set(traces.filter((t) => t.dropped).map((t) => t.id)),
    completedTraceIds: completed.map((c) => c.id),
    storedFunctionExecutionIds: new Set(),
  };
}

/**
 * writeAtOnce on Citus: every statement a router plan (docs/operations.md, "Citus"). The writes and the completion
 * check go pipelined, as one round trip; the outbox rows then follow as `INSERT … VALUES` of the traces it
 * completed, in the same transaction: trace_events takes its id from a sequence, which Citus evaluates on the
 * coordinator for a VALUES list but refuses in an `INSERT … SELECT` it would push down to the shard.
 */
async function writeAtOnceDistributed(
  db: SqlDatabase,
  organizationId: string,
  plan: TWritePlan,
  runs: TSerializedSpan[][],
  stamp: TWriteStamp,
): Promise<TWriteOutcome> {
  const ids = plan.traces.map((t) => t.row.id);
  const traceChunks = Math.ceil(plan.traces.length / MAX_TRACES_PER_STATEMENT);
  const statements = [...writeStatements(organizationId, plan, runs, stamp), completeReadyTracesStatement(organizationId, ids, stamp)];
  return db.transaction(async (tx) => {
    const results = await Promise.all(statements.map(({ statement, prepareAs }) => tx.query(statement, { prepareAs })));
    const traces = results.slice(0, traceChunks).flat() as Array<{ id: string; dropped: boolean }>;
    const completed = (results[results.length - 1] as Array<{ id: string }>).map((c) => c.id);
    if (completed.length > 0) await tx.query(insertCompletionEventsStatement(organizationId, completed).statement);
    return {
      droppedTraceIds: new Set(traces.filter((t) => t.dropped).map((t) => t.id)),
      completedTraceIds: completed,
      storedFunctionExecutionIds: new Set<string>(),
    };
  });
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

async function writeOnce(
  tx: SqlClient,
  organizationId: string,
  plan: TWritePlan,
  maxStatementBytes: number,
  afterWrite?: TAfterWrite,
): Promise<TWriteOutcome> {
  const stamp = newWriteStamp();
  const droppedTraceIds = new Set<string>();
  if (plan.traces.length === 0 && plan.spans.length > 0) throw new Error("spans without their traces in the write plan");
  const traceChunks = Math.ceil(plan.traces.length / MAX_TRACES_PER_STATEMENT);
  // Spans of a dropped trace are discarded by their statement, whether they arrive before or after the drop.
  const writes = writeStatements(organizationId, plan, chunkBySize(plan.spans, maxStatementBytes), stamp);
  for (const [index, { statement, prepareAs }] of writes.entries()) {
    const rows = await tx.query<{ id: string; dropped: boolean }>(statement, { prepareAs });
    if (index < traceChunks) for (const row of rows) if (row.dropped) droppedTraceIds.add(row.id);
  }
  if (droppedTraceIds.size > 0) await deleteSpansOfTraces(tx, organizationId, [...droppedTraceIds]);
  const stored =
    plan.functionExecutions.length > 0
      ? await insertFunctionExecutions(tx, organizationId, jsonArray(plan.functionExecutions))
      : [];
  const candidates = plan.traces.map((t) => t.row.id).filter((id) => !droppedTraceIds.has(id));
  if (afterWrite && candidates.length > 0) await afterWrite(tx, candidates, stamp);
  let completed: Array<{ id: string }> = [];
  if (candidates.length > 0) {
    completed = await tx.query<{ id: string }>(completeReadyTracesStatement(organizationId, candidates, stamp).statement);
    if (completed.length > 0) await tx.query(insertCompletionEventsStatement(organizationId, completed.map((c) => c.id)).statement);
  }
  return { droppedTraceIds, completedTraceIds: completed.map((c) => c.id), storedFunctionExecutionIds: new Set(stored) };
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
