// What a grader records beside (or instead of) pass/fail (docs/graders.md, "Scores and categories"): a numeric
// score in a declared range with an optional pass threshold, or a category from a declared set with optional
// passing categories. Absent = pass/fail only, as before. Lives in the grader's config under `output`, so it
// is versioned with the rest of the definition.
import { z } from "zod";

const MAX_CATEGORIES = 50;

export const ZScoreOutput = z
  .object({
    type: z.literal("score"),
    min: z.number().finite(),
    max: z.number().finite(),
    /** score >= passThreshold passes; absent = the score does not decide pass/fail. */
    passThreshold: z.number().finite().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.min >= o.max) ctx.addIssue({ code: "custom", path: ["max"], message: "must be greater than min" });
    if (o.passThreshold !== undefined && (o.passThreshold < o.min || o.passThreshold > o.max)) {
      ctx.addIssue({ code: "custom", path: ["passThreshold"], message: `must lie within [${o.min}, ${o.max}]` });
    }
  });

export const ZCategoryOutput = z
  .object({
    type: z.literal("category"),
    categories: z.array(z.string().trim().min(1, "must not be empty").max(100)).min(2, "needs at least 2 categories").max(MAX_CATEGORIES),
    /** A category in this list passes, any other fails; absent = the category does not decide pass/fail. */
    passingCategories: z.array(z.string().trim()).optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    const lower = o.categories.map((c) => c.toLowerCase());
    if (new Set(lower).size !== lower.length) ctx.addIssue({ code: "custom", path: ["categories"], message: "must be distinct (case-insensitively)" });
    (o.passingCategories ?? []).forEach((c, i) => {
      if (!o.categories.includes(c)) ctx.addIssue({ code: "custom", path: ["passingCategories", i], message: `"${c}" is not one of the categories` });
    });
  });

export const ZPassFailOutput = z.object({ type: z.literal("passFail") }).strict();

export const ZGraderOutput = z.union([ZPassFailOutput, ZScoreOutput, ZCategoryOutput]);
export type TGraderOutput = z.infer<typeof ZGraderOutput>;

/** A score or category as recorded, with the pass/fail it derives (or was given). */
export interface TOutcome {
  label: boolean | null;
  score: number | null;
  category: string | null;
}

export type TOutcomeCheck = { ok: true; outcome: TOutcome } | { ok: false; message: string; path: "score" | "category" | "label" };

/** The grader's output declaration from its config; pass/fail when absent or unreadable. */
export function outputOf(config: unknown): TGraderOutput {
  const parsed = ZGraderOutput.safeParse((config as { output?: unknown } | null)?.output);
  return parsed.success ? parsed.data : { type: "passFail" };
}

/** Whether pass/fail derives from the score or category (a threshold or passing categories are set). */
export function derivesLabel(output: TGraderOutput): boolean {
  return (output.type === "score" && output.passThreshold !== undefined) || (output.type === "category" && output.passingCategories !== undefined);
}

/** The canonical spelling of a category (matched case-insensitively), or null when it is not in the set. */
export function canonicalCategory(output: Extract<TGraderOutput, { type: "category" }>, value: string): string | null {
  const v = value.trim().toLowerCase();
  return output.categories.find((c) => c.toLowerCase() === v) ?? null;
}

/**
 * Checks a recorded outcome against the grader's output and derives pass/fail where the grader says how. A
 * score outside the range, an unknown category, a score on a category grader (or the reverse), or a label that
 * contradicts the derived one is refused, never coerced. `label` undefined = not given.
 */
export function checkOutcome(output: TGraderOutput, given: { label?: boolean | null; score?: number | null; category?: string | null }): TOutcomeCheck {
  const score = given.score ?? null;
  const category = given.category ?? null;
  const label = given.label ?? null;
  if (output.type !== "score" && score !== null) return { ok: false, path: "score", message: "this grader records no score" };
  if (output.type !== "category" && category !== null) return { ok: false, path: "category", message: "this grader records no category" };
  if (output.type === "passFail") {
    return label === null ? { ok: false, path: "label", message: "this grader records pass/fail: give label" } : { ok: true, outcome: { label, score: null, category: null } };
  }
  if (output.type === "score") {
    if (score === null) return label === null ? { ok: false, path: "score", message: "give a score, a label, or both" } : derived(output, { label, score, category: null });
    if (!Number.isFinite(score) || score < output.min || score > output.max) return { ok: false, path: "score", message: `must lie within the grader's range [${output.min}, ${output.max}]` };
    return derived(output, { label, score, category: null });
  }
  if (category === null) return label === null ? { ok: false, path: "category", message: "give a category, a label, or both" } : derived(output, { label, score: null, category: null });
  const canonical = canonicalCategory(output, category);
  if (canonical === null) return { ok: false, path: "category", message: `must be one of ${output.categories.map((c) => JSON.stringify(c)).join(", ")}` };
  return derived(output, { label, score: null, category: canonical });
}

function derived(output: TGraderOutput, o: TOutcome): TOutcomeCheck {
  let from: boolean | null = null;
  if (output.type === "score" && output.passThreshold !== undefined && o.score !== null) from = o.score >= output.passThreshold;
  if (output.type === "category" && output.passingCategories !== undefined && o.category !== null) from = output.passingCategories.includes(o.category);
  if (from === null) return { ok: true, outcome: o };
  if (o.label !== null && o.label !== from) {
    return { ok: false, path: "label", message: `contradicts the ${output.type} (the grader's ${output.type === "score" ? "threshold" : "passing categories"} make it ${from ? "a pass" : "a fail"})` };
  }
  return { ok: true, outcome: { ...o, label: from } };
}

/** A short text for a score or category (MCP texts, reasons): "score 7 of [0, 10]", "category \"good\"". */
export function describeOutcome(o: { score: number | null; category: string | null }, output?: TGraderOutput): string | null {
  if (o.score !== null) return output?.type === "score" ? `score ${o.score} of [${output.min}, ${output.max}]` : `score ${o.score}`;
  if (o.category !== null) return `category "${o.category}"`;
  return null;
}
