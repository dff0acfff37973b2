import { describe, expect, it } from "vitest";
import { Reprise } from "../src/client.js";
import { encodeValue } from "../src/encoding/value-codec.js";
import { ReplayBarrierTimeoutError } from "../src/errors.js";
import { clientAndServer } from "./helpers/client.js";
import { fakeReprise, type FakeOriginal } from "./helpers/fake-reprise.js";

function originals(count: number): FakeOriginal[] {
  return Array.from({ length: count }, (_, i) => {
    const { json, meta } = encodeValue([`question ${i}`, new Date(Date.UTC(2026, 0, i + 1))]);
    return { traceId: `orig-trace-${i}`, spanId: `orig-span-${i}`, input: json, input_meta: meta };
  });
}

describe("replay runner", () => {
  it("serves spans marked mockOnReplay from the original's recorded outputs, occurrence by occurrence", async () => {
    const recordedDate = encodeValue(new Date(Date.UTC(2026, 4, 1)));
    const [original] = originals(1);
    original!.tree = {
      spanName: "answer-question",
      output: "old answer",
      children: [
        { spanName: "lookup", output: "first recorded", children: [] },
        { spanName: "lookup", output: recordedDate.json, outputMeta: recordedDate.meta, children: [] },
      ],
    };
    const fake = fakeReprise([original!]);
    const { client } = await clientAndServer(fake.handler);
    let liveCalls = 0;
    const lookup = client.withSpan("lookup", { type: "function", mockOnReplay: true }, async (n: number) => {
      liveCalls += 1;
      return `live ${n}`;
    });
    const answer = client.withTrace("answer-question", async () => [await lookup(1), await lookup(2), await lookup(3)]);

    const result = await client.replay("answer-question", answer, { limit: 1 });

    const output = result.items[0]!.output as unknown[];
    expect(output[0]).toBe("first recorded");
    expect(output[1]).toEqual(new Date(Date.UTC(2026, 4, 1))); // decoded with its type meta
    expect(output[2]).toBe("live 3"); // the original had no third lookup
    expect(liveCalls).toBe(1);
    const sent = [...fake.spans.values()].flat().filter((s) => s.rawSpan.span_data.name === "lookup");
    expect(sent.filter((s) => s.mocked === true)).toHaveLength(2);
    expect(sent.find((s) => s.mocked)).toMatchObject({ mockTarget: "output", mockSource: "recorded" });
    expect(sent.filter((s) => s.mocked === undefined)).toHaveLength(1);
    // Outside a replay the function always runs.
    expect(await lookup(4)).toBe("live 4");
    expect(liveCalls).toBe(2);
  });

  it("starts, fetches inputs, runs under attributed traces, waits for acknowledgments, then completes", async () => {
    const fake = fakeReprise(originals(3));
    const { client, server } = await clientAndServer(fake.handler);
    const received: unknown[][] = [];
    const callModel = client.withSpan("callModel", { type: "llm" }, async (q: string) => {
      client.getCurrentSpan().addContext({ model: "m-2", inputTokens: 3, outputTokens: 1 });
      return `answer ${q}`;
    });
    const answer = client.withTrace("answer-question", async (question: string, asOf: Date) => {
      received.push([question, asOf]);
      return callModel(question);
    });

    const result = await client.replay("answer-question", answer, { limit: 3, name: "nightly", graderIds: ["g-1"] });

    expect(fake.state.startBody).toEqual({ traceFunctionKey: "answer-question", limit: 3, graderIds: ["g-1"], name: "nightly" });
    expect(server.requests.filter((r) => r.path.startsWith("/api/sdk/externalSpans/")).map((r) => r.path).sort()).toEqual([
      "/api/sdk/externalSpans/orig-span-0?view=replay",
      "/api/sdk/externalSpans/orig-span-1?view=replay",
      "/api/sdk/externalSpans/orig-span-2?view=replay",
    ]);
    expect(received).toHaveLength(3);
    expect(received.every(([, asOf]) => asOf instanceof Date)).toBe(true);

    expect(fake.completions.size).toBe(3);
    for (const [traceId, completion] of fake.completions) {
      expect(completion).toMatchObject({ testRunId: "run-1", experimentId: "run-1", expectedSpanCount: 2 });
      expect(completion.externalTrace.input_source_trace_id).toMatch(/^orig-trace-\d$/);
      expect(completion.externalTrace.replay_attempt).toBe(0);
      for (const span of fake.spans.get(traceId) ?? []) {
        expect(span).toMatchObject({ testRunId: "run-1", experimentId: "run-1" });
        expect(span.rawSpan.input_source_span_id).toMatch(/^orig-span-\d$/);
      }
    }
    // Local acknowledgments proved persistence: no polling, and complete came last.
    expect(fake.calls.filter((c) => c.endsWith("/replay/status"))).toHaveLength(0);
    expect(fake.calls.at(-1)).toBe("POST /api/sdk/replay/complete");

    expect(result.testRunId).toBe("run-1");
    expect(result.url).toBe(`${server.url}/experiments/run-1`);
    expect(result.traceCount).toBe(3);
    expect(result.items).toHaveLength(3);
    for (const item of result.items) {
      expect(item.error).toBeUndefined();
      expect(item.output).toBe(`answer ${item.input?.[0]}`);
      expect(item.serverTraceId).toBe(item.replayTraceId);
      expect(item.tokens).toEqual({ input: 3, output: 1, cached: 0, total: 4 });
      expect(item.outline?.spanCount).toBe(2);
      expect(item.original).toMatchObject({ durationMs: 120, model: "m-1", tokens: { total: 15 } });
      expect(item.original.outline?.traceId).toBe(item.originalTraceId);
    }
  });

  it("wraps a plain function, selects by traceIds and records errors per item", async () => {
    const fake = fakeReprise(originals(2));
    const { client } = await clientAndServer(fake.handler);
    const result = await client.replay(
      "answer-question",
      (question: string) => {
        if (question.endsWith("1")) throw new Error("model refused");
        return question.toUpperCase();
      },
      { traceIds: ["orig-trace-0", "orig-trace-1"] },
    );
    expect(fake.state.startBody).toEqual({ traceFunctionKey: "answer-question", traceIds: ["orig-trace-0", "orig-trace-1"] });
    const byOriginal = Object.fromEntries(result.items.map((i) => [i.originalTraceId, i]));
    expect(byOriginal["orig-trace-0"]?.output).toBe("QUESTION 0");
    expect(byOriginal["orig-trace-1"]?.error).toBe("model refused");
    expect(fake.completions.size).toBe(2);
    expect([...fake.completions.values()].every((c) => c.traceFunctionKey === "answer-question")).toBe(true);
  });

  it("polls replay/status with expectedSpanCounts when acknowledgments do not prove persistence", async () => {
    const fake = fakeReprise(originals(2));
    fake.useCollectorMode();
    const { server } = await clientAndServer(fake.handler);
    const collectorClient = new Reprise({
      apiKey: "rp_test",
      serviceUrl: server.url,
      otelExporterEndpoint: `${server.url}/collector`,
      disableSimPlan: true,
      logger: { warn: () => undefined },
    });
    try {
      const fn = collectorClient.withTrace("answer-question", (q: string) => collectorClient.withSpan("inner", () => q)());
      const result = await collectorClient.replay("answer-question", fn, { pollIntervalMs: 20 });
      expect(result.items.every((i) => i.error === undefined)).toBe(true);
      expect(fake.state.statusBodies.length).toBeGreaterThanOrEqual(1);
      const asked = fake.state.statusBodies[0]!;
      expect(asked.testRunId).toBe("run-1");
      expect(Object.values(asked.expectedSpanCounts)).toEqual([2, 2]);
      expect(Object.keys(asked.expectedSpanCounts).sort()).toEqual(result.items.map((i) => i.replayTraceId).sort());
      expect(server.requests.some((r) => r.path === "/collector/v1/traces")).toBe(true);
      expect(fake.calls.at(-1)).toBe("POST /api/sdk/replay/complete");
    } finally {
      await collectorClient.close(2_000);
    }
  });

  it("raises on barrier timeout and does not complete the run", async () => {
    const fake = fakeReprise(originals(1));
    fake.useCollectorMode();
    fake.state.statusConfirms = false;
    const { server } = await clientAndServer(fake.handler);
    const collectorClient = new Reprise({
      apiKey: "rp_test",
      serviceUrl: server.url,
      otelExporterEndpoint: `${server.url}/collector`,
      disableSimPlan: true,
      logger: { warn: () => undefined },
    });
    try {
      const error = await collectorClient
        .replay("answer-question", (q: string) => q, { barrierTimeoutMs: 400, pollIntervalMs: 20 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReplayBarrierTimeoutError);
      expect((error as ReplayBarrierTimeoutError).pendingTraceIds).toHaveLength(1);
      expect(fake.calls).not.toContain("POST /api/sdk/replay/complete");
    } finally {
      await collectorClient.close(2_000);
    }
  });
});
