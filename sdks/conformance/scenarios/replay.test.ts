// The replay barrier (docs/sdk-transport.md, rule 11; replay/start, replay/status, replay/complete).
import { expect } from "vitest";
import type { Recorder } from "../recorder/recorder.ts";
import { TEST_RUN_ID } from "../recorder/replay-state.ts";
import { containsValue, spanData } from "../runner/checks.ts";
import { conformance, KEY, type TreeSpan } from "../runner/harness.ts";

const ORIGINALS = [
  { traceId: "0b5e8d7c-1f2a-4b3c-8d4e-5f6a7b8c9d01", rootId: "1c6f9e8d-2a3b-4c4d-9e5f-6a7b8c9d0e11", stepId: "2d7a0f9e-3b4c-4d5e-8f6a-7b8c9d0e1f21", question: "q-1" },
  { traceId: "0b5e8d7c-1f2a-4b3c-8d4e-5f6a7b8c9d02", rootId: "1c6f9e8d-2a3b-4c4d-9e5f-6a7b8c9d0e12", stepId: "2d7a0f9e-3b4c-4d5e-8f6a-7b8c9d0e1f22", question: "q-2" },
];

/** Two recorded traces of KEY, each a root with one `step` child. */
export function seedOriginals(recorder: Recorder, count = ORIGINALS.length): void {
  recorder.replay.originals = ORIGINALS.slice(0, count).map((o) => ({
    traceId: o.traceId,
    traceFunctionKey: KEY,
    root: {
      id: o.rootId,
      name: "root",
      input: [o.question],
      output: `answer to ${o.question}`,
      children: [{ id: o.stepId, name: "step", type: "llm", input: [o.question], output: `recorded step for ${o.question}` }],
    },
  }));
}

const REPLAYED: TreeSpan = { name: "root", output: "new answer", children: [{ name: "step", type: "llm", output: "live step" }] };

const replayCarriers = (recorder: Recorder) =>
  recorder.replay.acked.filter((a) => (a.carrier.payload.testRunId ?? a.carrier.payload.experimentId) === TEST_RUN_ID);

conformance("replay barrier", [
  {
    name: "replay completes the run only after every replayed span and completion was acknowledged",
    rule: "transport rule 11",
    breaks: "barrier-skipped",
    setup: (recorder) => {
      seedOriginals(recorder);
      recorder.on("otlp", () => ({ delayMs: 400 }));
    },
    async run(ctx) {
      const result = await ctx.driver.call<{ testRunId: string; items: Array<{ originalTraceId: string; traceId: string; error?: string }> }>(
        "replay",
        { traceFunctionKey: KEY, limit: 5, tree: REPLAYED },
      );
      expect(result.testRunId).toBe(TEST_RUN_ID);
      expect(result.items.map((i) => i.originalTraceId).sort()).toEqual(ORIGINALS.map((o) => o.traceId).sort());
      for (const item of result.items) expect(item.error).toBeUndefined();
      const start = ctx.recorder.of("replay-start");
      expect(start).toHaveLength(1);
      expect(start[0]!.json.traceFunctionKey).toBe(KEY);
      const complete = ctx.recorder.of("replay-complete");
      expect(complete, "replay/complete called once").toHaveLength(1);
      const acked = replayCarriers(ctx.recorder);
      expect(acked.filter((a) => a.carrier.operation === "external_span"), "2 spans per replayed trace").toHaveLength(4);
      expect(acked.filter((a) => a.carrier.operation === "external_trace"), "1 completion per replayed trace").toHaveLength(2);
      for (const { at } of acked) expect(at, "acknowledged before replay/complete was sent").toBeLessThanOrEqual(complete[0]!.receivedAt);
      for (const original of ORIGINALS) {
        const root = acked.find((a) => a.carrier.operation === "external_span" && spanData(a.carrier).name === "root" && containsValue(spanData(a.carrier).input, original.question));
        expect(root, `the replayed root received the recorded input ${original.question}`).toBeDefined();
      }
    },
  },
  {
    name: "a span marked mock-on-replay is served from the recorded output instead of re-executing",
    rule: "replay: mocked spans, outline mocked: true",
    breaks: "no-mocking",
    setup: (recorder) => seedOriginals(recorder, 1),
    async run(ctx) {
      const tree: TreeSpan = {
        name: "root",
        output: "new answer",
        children: [{ name: "step", type: "llm", mockOnReplay: true, error: "a mocked span must not run" }],
      };
      const result = await ctx.driver.call<{ items: Array<{ error?: string; outline?: any }> }>("replay", { traceFunctionKey: KEY, limit: 5, tree });
      expect(result.items).toHaveLength(1);
      expect(result.items[0]!.error).toBeUndefined();
      const step = replayCarriers(ctx.recorder).find((a) => a.carrier.operation === "external_span" && spanData(a.carrier).name === "step");
      expect(step, "the mocked span is still recorded").toBeDefined();
      expect(step!.carrier.payload.mocked, "flagged mocked").toBe(true);
      expect(spanData(step!.carrier).error, "the function did not run").toBeUndefined();
      expect(containsValue(spanData(step!.carrier).output, `recorded step for ${ORIGINALS[0]!.question}`), "the recorded output was served").toBe(true);
      const outline = result.items[0]!.outline;
      if (outline) {
        const mocked = JSON.stringify(outline.spans ?? []);
        expect(mocked, "the outline shows the span as mocked").toContain('"mocked":true');
      }
    },
  },
  {
    name: "a replay whose traces are not confirmed in time raises and does not complete the run",
    rule: "transport rule 11",
    breaks: "barrier-skipped",
    timeoutMs: 40_000,
    setup: (recorder) => {
      seedOriginals(recorder, 1);
      recorder.on("otlp", () => ({ status: 503 }));
    },
    async run(ctx) {
      const error = await ctx.driver.callExpectingError("replay", { traceFunctionKey: KEY, limit: 5, tree: REPLAYED, barrierTimeoutMs: 3_000 });
      expect(error.type).toBe("replay_barrier_timeout");
      expect(error.details.pendingTraceIds).toHaveLength(1);
      expect(ctx.recorder.of("replay-complete"), "the run was not completed").toHaveLength(0);
    },
  },
]);
