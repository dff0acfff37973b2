// The LLM judge against a real stub Chat Completions server on 127.0.0.1 (
// 429 + Retry-After then 200 → a verdict; garbage → an errored verdict with the reason).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TGradingSpan } from "./grading.schemas.ts";
import { judgeTrace, parseRetryAfter, type JudgeOptions } from "./judge.ts";
import { CONTENT_BUDGET_CHARS, OUTLINE_BUDGET_CHARS, parseJudgeAnswer } from "./judge-prompt.ts";
import { createLimiter } from "./limiter.ts";

type Reply = { status: number; headers?: Record<string, string>; body: string; delayMs?: number };
const completion = (content: string) => JSON.stringify({ choices: [{ message: { role: "assistant", content } }] });
const good = completion('{"label": true, "reason": "It answers the question.", "confidence": 0.9}');

let server: http.Server;
let baseUrl: string;
let script: Reply[] = [];
let requests: { body: any; auth?: string; at: number }[] = [];
let inFlight = 0;
let maxInFlight = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", async () => {
      requests.push({ body: JSON.parse(raw), auth: req.headers.authorization, at: Date.now() });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const reply = script.length > 1 ? script.shift()! : script[0];
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      inFlight--;
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  requests = [];
  maxInFlight = 0;
});

const opts = (o: Partial<JudgeOptions> = {}): JudgeOptions => ({ baseUrl, apiKey: "sk-test", timeoutMs: 5_000, maxRetries: 3, maxRetryDelayMs: 5_000, limiter: createLimiter(4), ...o });
const at = Date.parse("2026-11-22T10:00:00Z");
const spans: TGradingSpan[] = [
  { id: "r", parentSpanId: null, name: "agent", type: "agent", startedAt: new Date(at), endedAt: new Date(at + 900), error: null, input: ["What is 6*7?"], output: "42", contentOff: false, inputTokens: null, outputTokens: null, totalTokens: null },
  { id: "c", parentSpanId: "r", name: "calculator", type: "function", startedAt: new Date(at + 10), endedAt: new Date(at + 20), error: "overflow", input: [6, 7], output: 42, contentOff: false, inputTokens: null, outputTokens: null, totalTokens: null },
];
const config = { model: "gpt-judge", instructions: "Pass if the answer is correct." };

describe("LLM judge", () => {
  it("answers 429 with Retry-After: 1, then 200: waits about a second and returns the verdict", async () => {
    script = [{ status: 429, headers: { "retry-after": "1" }, body: '{"error":"slow down"}' }, { status: 200, body: good }];
    const v = await judgeTrace(config, spans, opts());
    expect(v).toEqual({ label: true, reason: "It answers the question.", failureDiagnostic: null, confidence: "high" });
    expect(requests).toHaveLength(2);
    expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(950);
    const { body, auth } = requests[1];
    expect(auth).toBe("Bearer sk-test");
    expect(body.model).toBe("gpt-judge");
    const prompt = body.messages.map((m: { content: string }) => m.content).join("\n");
    expect(prompt).toContain("Pass if the answer is correct.");
    expect(prompt).toContain("- agent [agent] 900 ms");
    expect(prompt).toContain("  - calculator [function] 10 ms ERROR: overflow");
    expect(prompt).toContain('Input of the trace:\n["What is 6*7?"]');
    expect(prompt).toContain("Output of the trace:\n42");
  });

  it("a garbage answer gives an errored verdict with the reason, never an invented label", async () => {
    script = [{ status: 200, body: completion("Looks fine to me!") }];
    const v = await judgeTrace(config, spans, opts());
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toContain("did not answer with a JSON object");
    expect(v.failureDiagnostic).toContain("Looks fine to me!");
    script = [{ status: 200, body: completion('{"verdict": "maybe"}') }];
    expect((await judgeTrace(config, spans, opts())).failureDiagnostic).toContain('no boolean "label"');
    script = [{ status: 200, body: "<html>proxy error</html>" }];
    expect((await judgeTrace(config, spans, opts())).failureDiagnostic).toContain("not a Chat Completions response");
  });

  it("5xx on every attempt: retries, then errors saying so; a 4xx is not retried", async () => {
    script = [{ status: 503, body: "down" }];
    const v = await judgeTrace(config, spans, opts({ maxRetries: 2, maxRetryDelayMs: 50 }));
    expect(requests).toHaveLength(3);
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toMatch(/HTTP 503.*gave up after 3 attempts/);
    requests = [];
    script = [{ status: 401, body: '{"error":"bad key"}' }];
    const u = await judgeTrace(config, spans, opts());
    expect(requests).toHaveLength(1);
    expect(u.failureDiagnostic).toContain("HTTP 401");
  });

  it("no reachable endpoint, or no key for the public endpoint, is an errored verdict with a clear diagnostic", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const v = await judgeTrace(config, spans, opts({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1, maxRetryDelayMs: 10 }));
    expect(v.label).toBeNull();
    expect(v.failureDiagnostic).toContain("could not be reached");
    const w = await judgeTrace(config, spans, opts({ baseUrl: "https://api.openai.com/v1", apiKey: undefined }));
    expect(w.failureDiagnostic).toContain("OPENAI_API_KEY is not set");
  });

  it("times out a hanging endpoint", async () => {
    script = [{ status: 200, body: good, delayMs: 1_000 }];
    const v = await judgeTrace(config, spans, opts({ timeoutMs: 100, maxRetries: 0 }));
    expect(v.failureDiagnostic).toContain("timed out after 100 ms");
  });

  it("caps concurrent calls at the limiter's size", async () => {
    // The previous test's abandoned request may still be sleeping in the stub.
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    maxInFlight = 0;
    script = [{ status: 200, body: good, delayMs: 100 }];
    const limiter = createLimiter(2);
    const verdicts = await Promise.all(Array.from({ length: 6 }, () => judgeTrace(config, spans, opts({ limiter }))));
    expect(verdicts.every((v) => v.label === true)).toBe(true);
    expect(requests).toHaveLength(6);
    expect(maxInFlight).toBe(2);
  });

  it("a missing target errors without calling the judge; content is cut to the budget", async () => {
    const v = await judgeTrace({ ...config, target: { kind: "span", name: "search", occurrence: "last" } }, spans, opts());
    expect(v.failureDiagnostic).toContain('no span named "search"');
    expect(requests).toHaveLength(0);
    script = [{ status: 200, body: good }];
    const many = Array.from({ length: 2_000 }, (_, i) => ({ ...spans[1], id: `c${i}`, name: `step-${i}` }));
    const huge = [{ ...spans[0], output: "x".repeat(200_000) }, ...many];
    await judgeTrace({ ...config, target: { kind: "output" } }, huge, opts());
    const user = requests[0].body.messages[1].content as string;
    expect(user).toContain("more characters]");
    expect(user).toContain("more spans)");
    expect(user.length).toBeLessThan(config.instructions.length + OUTLINE_BUDGET_CHARS + CONTENT_BUDGET_CHARS + 500);
  });
});

describe("reading answers", () => {
  it("accepts fenced JSON, string labels and numeric or word confidence", () => {
    expect(parseJudgeAnswer('```json\n{"label": "fail", "reason": "wrong", "confidence": "Medium"}\n```')).toEqual({
      ok: true,
      verdict: { label: false, reason: "wrong", failureDiagnostic: null, confidence: "medium" },
    });
    expect(parseJudgeAnswer('Verdict: {"label": true, "confidence": 30}')).toMatchObject({ ok: true, verdict: { label: true, confidence: "low", reason: null } });
    expect(parseJudgeAnswer('{"label": 1}').ok).toBe(false);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("1")).toBe(1000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:05 GMT", Date.parse("2026-11-22T10:00:00Z"))).toBe(5000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
