import { describe, expect, it } from "vitest";
import { DEFAULT_PRICES } from "./default-prices.ts";
import { matchPrice, patternMatches, spanCost, type TPrice } from "./pricing.ts";

const usage = { input: null, output: null, cached: null, reasoning: null, total: null, startedAt: "2026-11-01T00:00:00Z" };
const own = (pattern: string, input: number, effectiveFrom = "1970-01-01"): TPrice => ({
  id: pattern, source: "organization", provider: null, pattern, inputPerMtok: input, outputPerMtok: input, cachedInputPerMtok: null, reasoningPerMtok: null, effectiveFrom,
});

describe("model price matching", () => {
  it("matches a name, its dated and versioned forms and provider prefixes, not a longer model name", () => {
    expect(patternMatches("gpt-4o", "gpt-4o")).toBe(true);
    expect(patternMatches("gpt-4o", "gpt-4o-2024-08-06")).toBe(true);
    expect(patternMatches("gpt-4o", "openai/GPT-4o")).toBe(true);
    expect(patternMatches("claude-3-5-sonnet", "claude-3-5-sonnet-20241022")).toBe(true);
    expect(patternMatches("claude-3-5-sonnet", "us.anthropic.claude-3-5-sonnet-20240620-v1:0")).toBe(true);
    expect(patternMatches("claude-3-5-sonnet", "claude-3-5-sonnet@20240620")).toBe(true);
    expect(patternMatches("gemini-1.5-pro", "models/gemini-1.5-pro-002")).toBe(true);
    expect(patternMatches("gpt-4o", "gpt-4o-mini")).toBe(false);
    expect(patternMatches("gpt-4o", "gpt-4o-realtime-preview-x")).toBe(false);
    expect(patternMatches("my-ft-*", "my-ft-abc")).toBe(true);
  });

  it("takes the most specific pattern, an organization's over a default on a tie, and only prices in effect", () => {
    expect(matchPrice(DEFAULT_PRICES, "gpt-4o-mini-2024-07-18", null)?.pattern).toBe("gpt-4o-mini");
    expect(matchPrice(DEFAULT_PRICES, "claude-sonnet-4-5-20250929", null)?.pattern).toBe("claude-sonnet-4-5");
    expect(matchPrice(DEFAULT_PRICES, "claude-sonnet-4-20250514", null)?.pattern).toBe("claude-sonnet-4");
    const prices = [...DEFAULT_PRICES, own("gpt-4o", 1), own("gpt-*", 7), own("gpt-4o", 2, "2026-12-01")];
    expect(matchPrice(prices, "gpt-4o-2024-08-06", "2026-11-15T00:00:00Z")?.inputPerMtok).toBe(1);
    expect(matchPrice(prices, "gpt-4o-2024-08-06", "2026-12-02T00:00:00Z")?.inputPerMtok).toBe(2);
    expect(matchPrice(prices, "gpt-unknown", null)?.inputPerMtok).toBe(7);
    expect(matchPrice(DEFAULT_PRICES, "llama-local", null)).toBeNull();
  });
});

describe("span cost", () => {
  it("prices cached input and reasoning output apart, once each", () => {
    const price: TPrice = { ...own("m", 2), outputPerMtok: 8, cachedInputPerMtok: 0.5, reasoningPerMtok: 10 };
    const cost = spanCost([price], { ...usage, model: "m", input: 1_000_000, cached: 400_000, output: 100_000, reasoning: 50_000 });
    // 600k × 2 + 400k × 0.5 + 50k × 8 + 50k × 10 per million = 1.2 + 0.2 + 0.4 + 0.5
    expect(cost).toEqual({ kind: "priced", costUsd: 2.3, priceId: "m" });
  });

  it("is none without a model or tokens, and unpriced (never zero) for a model no price matches", () => {
    expect(spanCost(DEFAULT_PRICES, { ...usage, model: null, input: 5 })).toEqual({ kind: "none" });
    expect(spanCost(DEFAULT_PRICES, { ...usage, model: "gpt-4o" })).toEqual({ kind: "none" });
    expect(spanCost(DEFAULT_PRICES, { ...usage, model: "llama-local", input: 5 })).toEqual({ kind: "unpriced" });
  });

  it("every default has a date, a provider and non-negative prices", () => {
    for (const p of DEFAULT_PRICES) {
      expect(p.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(["openai", "anthropic", "google"]).toContain(p.provider);
      expect(p.inputPerMtok).toBeGreaterThanOrEqual(0);
    }
  });
});
