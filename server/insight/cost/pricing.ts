// Matching a span's model to a price and computing its cost (docs/cost.md, "Matching" and "Cost"). Pure: no
// database, so ingestion, the recompute job and the tests share it.

export interface TPrice {
  /** "default:<pattern>" for a shipped default, else the organization's price id. */
  id: string;
  source: "default" | "organization";
  provider: string | null;
  /** A model name (matched with its dated or versioned forms), or a glob with `*`. */
  pattern: string;
  inputPerMtok: number;
  outputPerMtok: number;
  cachedInputPerMtok: number | null;
  reasoningPerMtok: number | null;
  /** YYYY-MM-DD: spans that started before it are not priced by it. */
  effectiveFrom: string;
}

export interface TSpanUsage {
  model: string | null;
  input: number | null;
  output: number | null;
  cached: number | null;
  reasoning: number | null;
  total: number | null;
  /** ISO time the span started (null: now). */
  startedAt: string | null;
}

/**
 * What may follow a model name in a versioned form of it: a date (-2024-08-06, -20241022), a numbered
 * revision (-0613, -001), -latest, -preview…, a Vertex `@version`, or a Bedrock `-v1:0`; several in a row.
 */
const VERSION_SUFFIX = /^(?:(?:-\d{4}-\d{2}-\d{2}|-\d{8}|-\d{3,4}|-latest|-preview(?:-[\w.]+)?|-exp(?:-[\w.]+)?|@[\w.-]+|-v\d+(?::\d+)?))+$/;

/** Lower case, without a provider prefix (`openai/`, `models/`, Bedrock's `us.anthropic.`). */
export function normalizeModel(model: string): string {
  let name = model.trim().toLowerCase();
  const slash = name.lastIndexOf("/");
  if (slash >= 0) name = name.slice(slash + 1);
  return name.replace(/^(?:[a-z]{2}\.)?(?:anthropic|openai|google|meta|mistral|cohere|amazon)\./, "");
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

/** Does the pattern name the model? Exact, a versioned form of it, or a glob match. */
export function patternMatches(pattern: string, model: string): boolean {
  const p = pattern.trim().toLowerCase();
  const name = normalizeModel(model);
  if (p.includes("*")) return globToRegExp(p).test(name) || globToRegExp(p).test(model.trim().toLowerCase());
  const bare = normalizeModel(p);
  if (name === bare) return true;
  return name.startsWith(bare) && VERSION_SUFFIX.test(name.slice(bare.length));
}

/** How specific a pattern is: its characters that are not `*` (the longest wins). */
const specificity = (pattern: string) => pattern.replace(/\*/g, "").length;

/**
 * The price for a model at a time: of the prices whose pattern matches and that took effect by then, the most
 * specific pattern; on a tie an organization's price over a default, then the latest to take effect.
 */
export function matchPrice(prices: readonly TPrice[], model: string, at: string | null): TPrice | null {
  const day = (at ?? new Date().toISOString()).slice(0, 10);
  // Ingestion prices every LLM span with the same cached list: remember each (model, day)'s answer per list.
  let memo = memos.get(prices);
  if (!memo) memos.set(prices, (memo = new Map()));
  const key = `${day} ${model}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const found = findPrice(prices, model, day);
  if (memo.size < 10_000) memo.set(key, found);
  return found;
}

const memos = new WeakMap<readonly TPrice[], Map<string, TPrice | null>>();

function findPrice(prices: readonly TPrice[], model: string, day: string): TPrice | null {
  let best: TPrice | null = null;
  for (const price of prices) {
    if (price.effectiveFrom > day || !patternMatches(price.pattern, model)) continue;
    if (best === null || better(price, best)) best = price;
  }
  return best;
}

function better(a: TPrice, b: TPrice): boolean {
  const sa = specificity(a.pattern);
  const sb = specificity(b.pattern);
  if (sa !== sb) return sa > sb;
  if (a.source !== b.source) return a.source === "organization";
  return a.effectiveFrom > b.effectiveFrom;
}

export type TCostResult =
  | { kind: "none" }
  | { kind: "unpriced" }
  | { kind: "priced"; costUsd: number; priceId: string };

/**
 * A span's cost. Input tokens include cached ones and output tokens include reasoning ones (the GenAI
 * conventions' counting), so each part is priced once: (input − cached) at the input price, cached at the cached
 * price, (output − reasoning) at the output price, reasoning at the reasoning price. A span with no model or no
 * token count is "none" (nothing to price); a model no price matches is "unpriced", never zero.
 */
export function spanCost(prices: readonly TPrice[], usage: TSpanUsage): TCostResult {
  if (usage.model === null || usage.model === "") return { kind: "none" };
  const counted = usage.input !== null || usage.output !== null || usage.total !== null;
  if (!counted) return { kind: "none" };
  const price = matchPrice(prices, usage.model, usage.startedAt);
  if (!price) return { kind: "unpriced" };
  // Only a total: price it as input (the cheaper side for every shipped model), which under-states rather than invents.
  const input = usage.input ?? (usage.output === null ? (usage.total ?? 0) : 0);
  const output = usage.output ?? 0;
  const cached = Math.min(usage.cached ?? 0, input);
  const reasoning = Math.min(usage.reasoning ?? 0, output);
  const cost =
    (input - cached) * price.inputPerMtok +
    cached * (price.cachedInputPerMtok ?? price.inputPerMtok) +
    (output - reasoning) * price.outputPerMtok +
    reasoning * (price.reasoningPerMtok ?? price.outputPerMtok);
  return { kind: "priced", costUsd: Math.round(cost * 1e4) / 1e10, priceId: price.id };
}
