import { ReplayBarrierTimeoutError } from "../errors.js";
import type { AckTracker } from "../transport/ack-tracker.js";
import { sleep } from "../transport/throttle.js";
import type { ReplayApi } from "./replay-api.js";

/** Inputs of the persistence barrier. */
export interface BarrierInput {
  testRunId: string;
  /** Local trace id → spans submitted for it (its completion's `expectedSpanCount`). */
  expected: Map<string, number>;
  /** Local acknowledgments; undefined when they do not prove persistence (Collector mode). */
  acks: AckTracker | undefined;
  api: ReplayApi;
  timeoutMs: number;
  intervalMs: number;
}

/**
 * Waits until every replayed trace is final with enough spans persisted (docs/sdk-transport.md, rule 11): confirmed
 * by local acknowledgments (completion acknowledged and at least the expected number of unique span ids), or else
 * by polling `replay/status` with `expectedSpanCounts`. Returns local → server trace ids; throws
 * `ReplayBarrierTimeoutError` when time runs out.
 */
export async function waitForPersistence(input: BarrierInput): Promise<Map<string, string | undefined>> {
  const deadline = Date.now() + input.timeoutMs;
  const confirmed = new Map<string, string | undefined>();
  const pending = new Map(input.expected);
  for (;;) {
    confirmFromAcks(input, pending, confirmed);
    if (pending.size === 0) return confirmed;
    await confirmFromStatus(input, pending, confirmed, deadline);
    if (pending.size === 0) return confirmed;
    const left = deadline - Date.now();
    if (left <= 0) throw new ReplayBarrierTimeoutError(input.testRunId, [...pending.keys()], input.timeoutMs);
    await sleep(Math.min(input.intervalMs, left));
  }
}

function confirmFromAcks(input: BarrierInput, pending: Map<string, number>, confirmed: Map<string, string | undefined>) {
  if (input.acks === undefined) return;
  for (const [traceId, expected] of pending) {
    const state = input.acks.get(traceId);
    if (state?.completionAcked && state.spanIds.size >= expected) {
      confirmed.set(traceId, state.serverTraceId);
      pending.delete(traceId);
    }
  }
}

async function confirmFromStatus(
  input: BarrierInput,
  pending: Map<string, number>,
  confirmed: Map<string, string | undefined>,
  deadline: number,
): Promise<void> {
  const left = deadline - Date.now();
  if (left <= 0) return;
  try {
    const persisted = await input.api.status(input.testRunId, Object.fromEntries(pending), left);
    for (const traceId of [...pending.keys()]) {
      if (persisted[traceId] === undefined) continue;
      confirmed.set(traceId, persisted[traceId]);
      pending.delete(traceId);
    }
  } catch {
    // An unreachable or older status endpoint leaves local acknowledgments as the only proof.
  }
}
