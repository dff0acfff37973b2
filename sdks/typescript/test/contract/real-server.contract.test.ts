/**
 * Contract test against a running Reprise. Skipped unless both variables are set:
 *   REPRISE_CONTRACT_URL=http://localhost:3000 REPRISE_CONTRACT_API_KEY=rp_… npm test -w sdk
 * It needs nothing else: the test records its own traces under a unique trace function key.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Reprise } from "../../src/client.js";
import { decodeValue } from "../../src/encoding/value-codec.js";

const url = process.env.REPRISE_CONTRACT_URL;
const apiKey = process.env.REPRISE_CONTRACT_API_KEY;

async function get<T>(path: string): Promise<T> {
  const response = await fetch(`${url}/api/sdk${path}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

describe.skipIf(!url || !apiKey)("contract: the SDK against a real Reprise", () => {
  it("stores spans whose inputs and outputs round-trip (Dates, Maps, BigInts)", async () => {
    const client = new Reprise({ apiKey, serviceUrl: url, disableSimPlan: true });
    const input = { when: new Date("2026-02-03T04:05:06.000Z"), tags: new Map([["k", 12n]]) };
    let spanId = "";
    const fn = client.withTrace(`contract-roundtrip-${randomUUID()}`, (value: typeof input) => {
      spanId = client.getCurrentSpan().id ?? "";
      return { big: 2n ** 80n, at: value.when };
    });
    fn(input);
    expect(await client.flushTraces()).toBe(true);
    const span = await get<{ rawData: { span_data: Record<string, unknown> } }>(`/externalSpans/${spanId}?view=replay`);
    const data = span.rawData.span_data;
    expect(decodeValue(data.input, data.input_meta)).toEqual([input]);
    expect(decodeValue(data.output, data.output_meta)).toEqual({ big: 2n ** 80n, at: input.when });
    await client.close();
  });

  it("replays 5 traces and returns outlines and token usage", async () => {
    const client = new Reprise({ apiKey, serviceUrl: url, disableSimPlan: true });
    const key = `contract-replay-${randomUUID()}`;
    const callModel = client.withSpan("callModel", { type: "llm" }, async (q: string) => {
      client.getCurrentSpan().addContext({ model: "contract-model", inputTokens: 7, outputTokens: 3 });
      return q.toUpperCase();
    });
    const answer = client.withTrace(key, async (q: string) => callModel(q));
    const traceIds: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      await answer(`question ${i}`);
    }
    expect(await client.flushTraces()).toBe(true);
    const listed = await get<{ traces: Array<{ id: string; status: string }> }>(`/traces?traceFunctionKey=${encodeURIComponent(key)}`);
    traceIds.push(...listed.traces.map((t) => t.id));
    expect(traceIds).toHaveLength(5);
    const result = await client.replay(key, answer, { traceIds });
    expect(result.items).toHaveLength(5);
    for (const item of result.items) {
      expect(item.error).toBeUndefined();
      expect(item.outline?.spanCount).toBe(2);
      expect(item.tokens?.total).toBe(10);
      expect(item.original.outline).not.toBeNull();
    }
    await client.close();
  });
});
