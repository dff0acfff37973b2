// What a backfill's judge calls are expected to cost (docs/graders.md, "Online evaluation"): the prompt the
// judge is sent per trace (judge-prompt.ts: its fixed text, the instructions, the outline within its budget,
// the root span's input and output within the content budget) at ~4 characters a token, plus a short answer,
// priced at the judge model's price from the price table (docs/cost.md, "Matching"). An estimate, not a bill:
// a span target is sized by the root span, and the provider's tokenizer counts differently.
import { matchPrice, type TPrice } from "../../insight/cost/pricing.ts";
import type { TJudgeConfig } from "../../graders/grader-config.schemas.ts";
import { buildJudgeMessages, CONTENT_BUDGET_CHARS, OUTLINE_BUDGET_CHARS } from "../judge-prompt.ts";
import type { BackfillCandidateStats } from "./backfill.queries.ts";
import type { TBackfillEstimate } from "./backfill.schemas.ts";

export const CHARS_PER_TOKEN = 4;
/** An answer is one short JSON object: label, one or two sentences, confidence. */
export const ANSWER_TOKENS = 60;
/** An outline line ("  - name [type] 12 ms"). */
export const OUTLINE_LINE_CHARS = 40;

/** The per-trace caps the candidate query applies, so one huge trace counts no more than its prompt can hold. */
export function promptCaps(config: Pick<TJudgeConfig, "target">) {
  const outputOnly = config.target?.kind === "output";
  return {
    spans: Math.floor(OUTLINE_BUDGET_CHARS / OUTLINE_LINE_CHARS),
    inputChars: outputOnly ? 0 : CONTENT_BUDGET_CHARS / 2,
    outputChars: outputOnly ? CONTENT_BUDGET_CHARS : CONTENT_BUDGET_CHARS / 2,
  };
}

/** The judge's expected tokens and cost over the candidates; unpriced (costUsd null) when no price names the model. */
export function estimateJudge(config: Pick<TJudgeConfig, "model" | "instructions">, stats: BackfillCandidateStats, prices: readonly TPrice[]): NonNullable<TBackfillEstimate["judge"]> {
  const fixed = buildJudgeMessages(config.instructions, [], "").reduce((n, m) => n + m.content.length, 0);
  const chars = stats.traces * fixed + stats.spans * OUTLINE_LINE_CHARS + stats.rootInputChars + stats.rootOutputChars;
  const inputTokens = Math.ceil(chars / CHARS_PER_TOKEN);
  const outputTokens = stats.traces * ANSWER_TOKENS;
  const price = matchPrice(prices, config.model, null);
  if (!price) return { model: config.model, inputTokens, outputTokens, costUsd: null, priced: false, priceId: null };
  const cost = (inputTokens * price.inputPerMtok + outputTokens * price.outputPerMtok) / 1e6;
  return { model: config.model, inputTokens, outputTokens, costUsd: Math.round(cost * 1e6) / 1e6, priced: true, priceId: price.id };
}
