// The model prices Reprise ships (docs/cost.md, "Default prices"): USD per million tokens, each with the date
// it took effect. Compiled on 2026-11-28 from the providers' published price lists; providers change them,
// so check them (an organization's override wins over a default of the same pattern). Cached input is what a
// prompt-cache read costs; reasoning tokens are billed as output by all three providers.
import type { TPrice } from "./pricing.ts";

type Row = [pattern: string, input: number, output: number, cachedInput: number | null, effectiveFrom: string];

const OPENAI: Row[] = [
  ["gpt-5", 1.25, 10, 0.125, "2025-08-07"],
  ["gpt-5-mini", 0.25, 2, 0.025, "2025-08-07"],
  ["gpt-5-nano", 0.05, 0.4, 0.005, "2025-08-07"],
  ["gpt-4.1", 2, 8, 0.5, "2025-04-14"],
  ["gpt-4.1-mini", 0.4, 1.6, 0.1, "2025-04-14"],
  ["gpt-4.1-nano", 0.1, 0.4, 0.025, "2025-04-14"],
  ["gpt-4o", 2.5, 10, 1.25, "2024-10-01"],
  ["gpt-4o-mini", 0.15, 0.6, 0.075, "2024-07-18"],
  ["gpt-4-turbo", 10, 30, null, "2024-04-09"],
  ["gpt-4", 30, 60, null, "2023-03-14"],
  ["gpt-3.5-turbo", 0.5, 1.5, null, "2024-01-25"],
  ["o1", 15, 60, 7.5, "2024-12-17"],
  ["o1-mini", 1.1, 4.4, 0.55, "2024-09-12"],
  ["o3", 2, 8, 0.5, "2025-06-10"],
  ["o3-mini", 1.1, 4.4, 0.55, "2025-01-31"],
  ["o4-mini", 1.1, 4.4, 0.275, "2025-04-16"],
  ["text-embedding-3-small", 0.02, 0, null, "2024-01-25"],
  ["text-embedding-3-large", 0.13, 0, null, "2024-01-25"],
];

const ANTHROPIC: Row[] = [
  ["claude-opus-4-1", 15, 75, 1.5, "2025-08-05"],
  ["claude-opus-4", 15, 75, 1.5, "2025-05-22"],
  ["claude-sonnet-4-5", 3, 15, 0.3, "2025-09-29"],
  ["claude-sonnet-4", 3, 15, 0.3, "2025-05-22"],
  ["claude-haiku-4-5", 1, 5, 0.1, "2025-10-15"],
  ["claude-3-7-sonnet", 3, 15, 0.3, "2025-02-24"],
  ["claude-3-5-sonnet", 3, 15, 0.3, "2024-06-20"],
  ["claude-3-5-haiku", 0.8, 4, 0.08, "2024-11-04"],
  ["claude-3-opus", 15, 75, 1.5, "2024-02-29"],
  ["claude-3-haiku", 0.25, 1.25, 0.03, "2024-03-07"],
];

const GOOGLE: Row[] = [
  ["gemini-2.5-pro", 1.25, 10, 0.31, "2025-06-17"],
  ["gemini-2.5-flash", 0.3, 2.5, 0.075, "2025-06-17"],
  ["gemini-2.5-flash-lite", 0.1, 0.4, 0.025, "2025-07-22"],
  ["gemini-2.0-flash", 0.1, 0.4, 0.025, "2025-02-05"],
  ["gemini-2.0-flash-lite", 0.075, 0.3, null, "2025-02-25"],
  ["gemini-1.5-pro", 1.25, 5, 0.3125, "2024-10-01"],
  ["gemini-1.5-flash", 0.075, 0.3, 0.01875, "2024-10-01"],
];

/** The date the defaults below were compiled (shown in the console and docs/cost.md). */
export const DEFAULT_PRICES_COMPILED_ON = "2026-11-28";

const toPrices = (provider: string, rows: Row[]): TPrice[] =>
  rows.map(([pattern, input, output, cachedInput, effectiveFrom]) => ({
    id: `default:${pattern}`,
    source: "default",
    provider,
    pattern,
    inputPerMtok: input,
    outputPerMtok: output,
    cachedInputPerMtok: cachedInput,
    reasoningPerMtok: output,
    effectiveFrom,
  }));

export const DEFAULT_PRICES: readonly TPrice[] = [...toPrices("openai", OPENAI), ...toPrices("anthropic", ANTHROPIC), ...toPrices("google", GOOGLE)];
