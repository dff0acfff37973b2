// The Ruby SDK against a real Reprise: the gem's quickstart (sdks/ruby/examples/quickstart.rb) records a trace
// into the built server (`npm start`, shared by the system suites), directly (OTLP/JSON) and through the
// Collector path (OTLP/protobuf), and the trace reads back over REST as completed with its spans, tokens and model.
import { spawnSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";
import { runToEnd } from "./server-process.ts";

const hasRuby = spawnSync("sh", ["-c", "command -v ruby"]).status === 0;
if (!hasRuby) console.warn("Skipping the Ruby SDK system test: ruby not found; install with `apt-get install ruby`.");

describe.skipIf(!hasRuby)("the Ruby SDK against a real Reprise", () => {
  const { baseUrl, apiKey } = inject("reprise");

  async function quickstart(traceFunction: string, extraEnv: Record<string, string> = {}): Promise<string> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      REPRISE_API_KEY: apiKey,
      REPRISE_URL: baseUrl,
      REPRISE_EXAMPLE_TRACE_FUNCTION: traceFunction,
    };
    delete env.REPRISE_OTEL_EXPORTER_ENDPOINT;
    Object.assign(env, extraEnv);
    const { code, output } = await runToEnd("ruby", ["-Isdks/ruby/lib", "sdks/ruby/examples/quickstart.rb"], { env });
    expect(code, output).toBe(0);
    const lines = output.trim().split("\n");
    const last = JSON.parse(lines.find((line) => line.startsWith('{"traceId"')) ?? "{}") as { traceId?: string };
    expect(last.traceId, output).toMatch(/^[0-9a-f-]{36}$/);
    return last.traceId as string;
  }

  async function readTrace(traceId: string): Promise<Record<string, unknown>> {
    // Direct mode answers after persistence; the Collector path is acknowledged first, so poll briefly.
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${baseUrl}/api/sdk/traces/${traceId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
      const body = (await res.json()) as { trace?: Record<string, unknown> };
      if (res.status === 200 && body.trace?.status === "completed") return body.trace;
      if (attempt > 50) throw new Error(`trace ${traceId} not completed: ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("records the quickstart's trace over OTLP/JSON: completed, 3 spans, tokens 12/3, model example-model", async () => {
    const traceId = await quickstart("ruby-quickstart");
    const trace = await readTrace(traceId);
    expect(trace).toMatchObject({
      id: traceId,
      traceFunctionKey: "ruby-quickstart",
      status: "completed",
      spanCount: 3,
      expectedSpanCount: 3,
      model: "example-model",
      tokens: { input: 12, output: 3 },
    });
  });

  it("records the same trace through the Collector path (the gem's OTLP/protobuf encoder)", async () => {
    const traceId = await quickstart("ruby-quickstart-collector", { REPRISE_OTEL_EXPORTER_ENDPOINT: `${baseUrl}/api/sdk/otel` });
    const trace = await readTrace(traceId);
    expect(trace).toMatchObject({ status: "completed", spanCount: 3, model: "example-model", tokens: { input: 12, output: 3 } });
  });

  it("replays the recorded trace through the gem's replay runner (persistence barrier, then replay/complete)", async () => {
    await quickstart("ruby-replay");
    const script = [
      'require "reprise"; require "json"',
      "client = Reprise::Client.new",
      'result = client.replay("ruby-replay", limit: 1, name: "ruby system test") { |question| "replayed: #{question}" }',
      'puts JSON.generate(result.items.map { |i| { "output" => i.output, "error" => i.error, "server" => i.server_trace_id } })',
    ].join("\n");
    const { code, output } = await runToEnd("ruby", ["-Isdks/ruby/lib", "-e", script], {
      env: { ...process.env, REPRISE_API_KEY: apiKey, REPRISE_URL: baseUrl, REPRISE_OTEL_EXPORTER_ENDPOINT: "" },
    });
    expect(code, output).toBe(0);
    const items = JSON.parse(output.trim().split("\n").pop() ?? "[]") as Array<{ output: string; error?: string; server: string }>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ output: "replayed: What is 2+2?", error: null });
    const trace = await readTrace(items[0]?.server as string);
    expect(trace).toMatchObject({ status: "completed", traceFunctionKey: "ruby-replay" });
    expect(trace.testRunId).toBeTruthy();
  });
});
