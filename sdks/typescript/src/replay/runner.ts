import { randomUUID } from "node:crypto";
import { decodeValue } from "../encoding/value-codec.js";
import { RepriseApiError, RepriseError, ReplayBarrierTimeoutError } from "../errors.js";
import type { AckTracker } from "../transport/ack-tracker.js";
import { withTimeout } from "../transport/transport.js";
import type { PendingReplay } from "../tracing/context.js";
import type { CompletionInfo, TraceState } from "../tracing/trace-state.js";
import { waitForPersistence } from "./barrier.js";
import { ReplayMocks } from "./mocks.js";
import type { CompleteResponse, ReplayApi, StartItem } from "./replay-api.js";
import type { ReplayItemResult, ReplayOptions, ReplayResult } from "./types.js";

/** What the runner needs from the client. */
export interface ReplayHost {
  replayApi: ReplayApi;
  acks: AckTracker;
  /** False in Collector mode, where an acceptance does not prove persistence. */
  acksProvePersistence: boolean;
  /** Calls `fn(...args)` so that the root trace it records becomes `pending`. */
  invoke(traceFunctionKey: string, fn: (...args: any[]) => unknown, args: unknown[], pending: PendingReplay): unknown;
  /** Flushes every live transport; the result is informational only. */
  flushAll(timeoutMs: number): Promise<boolean>;
}

interface ItemRun {
  result: ReplayItemResult;
  trace?: TraceState;
}

/**
 * Replays recorded traces of `traceFunctionKey` through `fn` (docs/replay.md, "The flow"): start the run, fetch
 * each original's input, run `fn` under a new trace attributed to the run, then the persistence barrier
 * (docs/sdk-transport.md, rule 11), then `replay/complete`. On barrier timeout it throws and does not complete the run.
 */
export async function runReplay(
  host: ReplayHost,
  traceFunctionKey: string,
  fn: (...args: any[]) => unknown,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  validateOptions(options);
  const timeoutMs = options.barrierTimeoutMs ?? 30_000;
  const start = await host.replayApi.start(startBody(traceFunctionKey, options));
  const testRunId = start.experimentId ?? start.testRunId;
  if (typeof testRunId !== "string") throw new RepriseApiError("replay/start answered without a run id");
  const runs = await mapConcurrent(start.items ?? [], options.concurrency ?? 10, (item) =>
    runItem(host, traceFunctionKey, fn, testRunId, item),
  );
  try {
    const deadline = Date.now() + timeoutMs;
    const expected = await collectExpectedCounts(runs, testRunId, timeoutMs, deadline);
    await host.flushAll(Math.max(1, deadline - Date.now())); // in TypeScript a failed flush alone does not fail replay
    const confirmed = await waitForPersistence({
      testRunId,
      expected,
      acks: host.acksProvePersistence ? host.acks : undefined,
      api: host.replayApi,
      timeoutMs: Math.max(1, deadline - Date.now()),
      intervalMs: options.pollIntervalMs ?? 100,
    });
    const complete = await host.replayApi.complete(testRunId);
    return {
      testRunId,
      experimentId: testRunId,
      url: host.replayApi.absolute(start.experimentUrl ?? start.testRunUrl),
      traceCount: complete.traceCount ?? Object.keys(complete.traceIds ?? {}).length,
      items: runs.map((run) => withServerView(run.result, confirmed, complete)),
    };
  } finally {
    for (const run of runs) if (run.result.replayTraceId) host.acks.unwatch(run.result.replayTraceId);
  }
}

function validateOptions(options: ReplayOptions): void {
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new RepriseError(`replay: ${message}`);
  };
  check(options.limit === undefined || (Number.isInteger(options.limit) && options.limit >= 1 && options.limit <= 5_000), "limit must be an integer from 1 to 5,000");
  check((options.traceIds?.length ?? 0) <= 100, "at most 100 traceIds");
  check((options.datasetIds?.length ?? 0) <= 50, "at most 50 datasetIds");
  check((options.graderIds?.length ?? 0) <= 100, "at most 100 graderIds");
  check(options.concurrency === undefined || options.concurrency >= 1, "concurrency must be at least 1");
}

function startBody(traceFunctionKey: string, options: ReplayOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { traceFunctionKey };
  if (options.traceIds?.length) body.traceIds = options.traceIds;
  if (options.datasetIds?.length) body.datasetIds = options.datasetIds;
  if (!options.traceIds?.length && !options.datasetIds?.length) body.limit = options.limit ?? 5;
  if (options.graderIds?.length) body.graderIds = options.graderIds;
  if (options.name !== undefined) body.name = options.name;
  return body;
}

async function runItem(
  host: ReplayHost,
  traceFunctionKey: string,
  fn: (...args: any[]) => unknown,
  testRunId: string,
  item: StartItem,
): Promise<ItemRun> {
  const originalSpanId = item.externalSpanId ?? item.originalSpanId ?? item.sourceSpanId ?? "";
  const originalTraceId = item.originalTraceId ?? item.sourceTraceId ?? "";
  const result: ReplayItemResult = {
    originalTraceId,
    originalSpanId,
    tokens: null,
    outline: null,
    original: {
      durationMs: item.originalDurationMs ?? item.durationMs ?? null,
      tokens: item.originalTokens ?? item.tokens ?? null,
      model: item.originalModel ?? item.model ?? null,
      outline: null,
    },
  };
  let args: unknown[];
  let original;
  try {
    original = await host.replayApi.originalSpan(originalSpanId);
    const data = original.rawData?.span_data ?? {};
    args = toArguments(decodeValue(data.input, data.input_meta));
  } catch (error) {
    result.error = `could not load the original input: ${messageOf(error)}`;
    return { result };
  }
  const mocks = new ReplayMocks(await host.replayApi.spanTree(originalSpanId).catch(() => undefined));
  const replayTraceId = randomUUID();
  host.acks.watch(replayTraceId);
  let trace: TraceState | undefined;
  const pending: PendingReplay = {
    traceId: replayTraceId,
    consumed: false,
    attribution: {
      testRunId,
      inputSourceSpanId: original.id ?? originalSpanId,
      inputSourceTraceId: original.externalTraceId ?? originalTraceId,
      attempt: 0,
      mocks,
    },
    onTrace: (t) => (trace = t),
  };
  result.replayTraceId = replayTraceId;
  result.input = args;
  const startedAt = Date.now();
  try {
    result.output = await host.invoke(traceFunctionKey, fn, args, pending);
  } catch (error) {
    result.error = messageOf(error);
  }
  result.durationMs = Date.now() - startedAt;
  if (trace === undefined) result.error ??= "the function did not record a trace (is tracing enabled?)";
  return { result, trace };
}

/** The original input is the argument array; anything else is one argument (docs/sdk-transport.md, "Payloads": Values). */
function toArguments(input: unknown): unknown[] {
  if (Array.isArray(input)) return input;
  return input === undefined || input === null ? [] : [input];
}

/** Waits for each replay trace's completion (children included) and returns its expected span count. */
async function collectExpectedCounts(runs: ItemRun[], testRunId: string, timeoutMs: number, deadline: number) {
  const expected = new Map<string, number>();
  const late: string[] = [];
  await Promise.all(
    runs.map(async ({ trace }) => {
      if (trace === undefined) return;
      const info = await withTimeout<CompletionInfo | undefined>(trace.completion, Math.max(1, deadline - Date.now()), undefined);
      if (info === undefined) late.push(trace.id);
      else if (info.sent && !info.dropped) expected.set(info.traceId, info.expectedSpanCount);
    }),
  );
  if (late.length > 0) throw new ReplayBarrierTimeoutError(testRunId, late, timeoutMs);
  return expected;
}

function withServerView(
  result: ReplayItemResult,
  confirmed: Map<string, string | undefined>,
  complete: CompleteResponse,
): ReplayItemResult {
  const local = result.replayTraceId;
  const originalOutline = complete.originalTraceOutlines?.[result.originalTraceId] ?? null;
  const withOriginal = { ...result, original: { ...result.original, outline: originalOutline } };
  if (local === undefined) return withOriginal;
  const serverTraceId = complete.traceIds?.[local] ?? confirmed.get(local) ?? local;
  return {
    ...withOriginal,
    serverTraceId,
    tokens: complete.tokens?.[serverTraceId] ?? null,
    outline: complete.traceOutlines?.[serverTraceId] ?? null,
  };
}

async function mapConcurrent<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
