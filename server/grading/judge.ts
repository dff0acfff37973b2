// The LLM judge client (docs/graders.md, "LLM judge graders"): an OpenAI-compatible Chat Completions
// call asking for {label, reason, confidence}. Timeouts, retries on 429/5xx honouring Retry-After, a
// process-wide concurrency cap. Any failure is an errored verdict with the reason, never an invented one.
import { getEnv } from "../env.ts";
import { erroredVerdict, type TGradingSpan, type TVerdict } from "./grading.schemas.ts";
import { type TTarget } from "../graders/grader-config.schemas.ts";
import type { TGraderOutput } from "../graders/grader-output.schemas.ts";
import { buildJudgeMessages, parseJudgeAnswer, targetContent, type ChatMessage } from "./judge-prompt.ts";
import { createLimiter, type Limiter } from "./limiter.ts";
import { resolveTarget } from "./targets.ts";

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

export interface JudgeOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  /** A longer Retry-After is shortened to this. */
  maxRetryDelayMs: number;
  limiter: Limiter;
}

let processLimiter: Limiter | undefined;

/** Options from the environment: OPENAI_BASE_URL, OPENAI_API_KEY, REPRISE_JUDGE_CONCURRENCY (default 4). */
export function judgeOptionsFromEnv(overrides: Partial<JudgeOptions> = {}): JudgeOptions {
  const env = getEnv();
  processLimiter ??= createLimiter(env.REPRISE_JUDGE_CONCURRENCY);
  return { baseUrl: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, timeoutMs: 60_000, maxRetries: 3, maxRetryDelayMs: 30_000, limiter: processLimiter, ...overrides };
}

/** Whether the judge has somewhere to go: a key for the default endpoint, or another endpoint. */
export function isJudgeConfigured(options: Pick<JudgeOptions, "baseUrl" | "apiKey"> = judgeOptionsFromEnv()): boolean {
  return Boolean(options.apiKey) || options.baseUrl.replace(/\/+$/, "") !== DEFAULT_OPENAI_BASE_URL;
}

/**
 * Judges one trace: resolves the target, builds the prompt (instructions + outline + content within
 * the budget) and asks the model. Reusable for assertions without a `check` (pass the assertion text
 * and criteria as instructions).
 */
export async function judgeTrace(
  config: { model: string; instructions: string; target?: TTarget; output?: TGraderOutput },
  spans: TGradingSpan[],
  options: JudgeOptions = judgeOptionsFromEnv(),
): Promise<TVerdict> {
  const resolved = resolveTarget(spans, config.target ?? null);
  if (!resolved.ok) return erroredVerdict(`Target not found: ${resolved.missing}.`);
  const span = resolved.target.span;
  if (!span) return erroredVerdict("Target value not available: the trace has no root span to read an output from.");
  if (span.contentOff) return erroredVerdict(`Target value not available: the content of span "${span.name}" was not captured (content capture is off in the sim plan).`);
  const content = targetContent(resolved.target, config.target?.kind === "output");
  const answer = await askJudge(config.model, buildJudgeMessages(config.instructions, spans, content, config.output), options);
  if (!answer.ok) return erroredVerdict(answer.reason);
  const parsed = parseJudgeAnswer(answer.content, config.output);
  return parsed.ok ? parsed.verdict : erroredVerdict(parsed.reason);
}

type Attempt = { ok: true; content: string } | { ok: false; reason: string; retryable: boolean; retryAfterMs?: number };

/** One Chat Completions exchange with retries; returns the assistant message text or why there is none. */
export async function askJudge(model: string, messages: ChatMessage[], options: JudgeOptions): Promise<{ ok: true; content: string } | { ok: false; reason: string }> {
  if (!isJudgeConfigured(options)) {
    return { ok: false, reason: `OPENAI_API_KEY is not set, so the LLM judge cannot call ${DEFAULT_OPENAI_BASE_URL}. Set OPENAI_API_KEY, or OPENAI_BASE_URL for another OpenAI-compatible endpoint.` };
  }
  let last: Attempt = { ok: false, reason: "no attempt", retryable: false };
  for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
    if (attempt > 0) {
      const backoff = Math.min(1000 * 2 ** (attempt - 1), options.maxRetryDelayMs);
      await sleep(Math.min(last.ok ? 0 : (last.retryAfterMs ?? backoff), options.maxRetryDelayMs));
    }
    last = await options.limiter.run(() => attemptOnce(model, messages, options));
    if (last.ok || !last.retryable) break;
  }
  if (last.ok) return last;
  return { ok: false, reason: last.retryable ? `${last.reason} (gave up after ${options.maxRetries + 1} attempts)` : last.reason };
}

async function attemptOnce(model: string, messages: ChatMessage[], options: JudgeOptions): Promise<Attempt> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify({ model, messages, temperature: 0, response_format: { type: "json_object" } }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const e = error as Error;
    const why = e.name === "TimeoutError" ? `timed out after ${options.timeoutMs} ms` : `could not be reached (${describeCause(e)})`;
    return { ok: false, reason: `The judge endpoint ${url} ${why}`, retryable: true };
  }
  const text = await response.text().catch(() => "");
  if (response.status === 429 || response.status >= 500) {
    return { ok: false, reason: `The judge endpoint answered HTTP ${response.status}: ${text.slice(0, 200)}`, retryable: true, retryAfterMs: parseRetryAfter(response.headers.get("retry-after")) };
  }
  if (!response.ok) return { ok: false, reason: `The judge endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`, retryable: false };
  try {
    const content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
    if (typeof content === "string") return { ok: true, content };
  } catch {
    /* reported below */
  }
  return { ok: false, reason: `The judge endpoint's answer is not a Chat Completions response: ${JSON.stringify(text.slice(0, 200))}`, retryable: false };
}

/** Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) || /^-/.test(trimmed) ? undefined : Math.max(0, at - now);
}

function describeCause(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
