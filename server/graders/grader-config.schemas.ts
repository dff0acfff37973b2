// Grader configuration grammar and verdicts (docs/api/graders.md, "POST /api/sdk/graders"; docs/graders.md).
// The target grammar is the assertion's targetOnEvaluatedTrace (docs/api/assertions.md); the
// check grammar is shared with assertions' `check`.
import { z } from "zod";
import { ZOnlineSettings } from "./online-settings.schemas.ts";
import { ZGraderOutput } from "./grader-output.schemas.ts";

export const ZTarget = z
  .union([
    z.object({ kind: z.literal("output") }).strict(),
    z
      .object({
        kind: z.literal("span"),
        name: z.string().min(1, "a span target needs the span name"),
        // 'first', 'last' (default) or a 0-based index, counted by start order.
        occurrence: z.union([z.enum(["first", "last"]), z.number().int().min(0)]).default("last"),
      })
      .strict(),
  ])
  .nullable();
export type TTarget = z.infer<typeof ZTarget>;

const ZRegexSource = z.string().superRefine((value, ctx) => {
  try {
    new RegExp(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `must be a valid regular expression (${(error as Error).message})` });
  }
});

export const ZCheck = z
  .discriminatedUnion("op", [
    z.object({ op: z.literal("equals"), value: z.json() }).strict(),
    z.object({ op: z.literal("contains"), value: z.string() }).strict(),
    z.object({ op: z.literal("matches"), value: ZRegexSource, flags: z.string().regex(/^[imsu]*$/, "flags may only use i, m, s and u").optional() }).strict(),
    z.object({ op: z.literal("noErrors") }).strict(),
    z.object({ op: z.literal("maxDurationMs"), value: z.number().nonnegative() }).strict(),
    z.object({ op: z.literal("maxTotalTokens"), value: z.number().nonnegative() }).strict(),
  ])
  .superRefine((check, ctx) => {
    if (check.op === "matches" && check.flags) {
      try {
        new RegExp(check.value, check.flags);
      } catch (error) {
        ctx.addIssue({ code: "custom", path: ["flags"], message: (error as Error).message });
      }
    }
  });
export type TCheck = z.infer<typeof ZCheck>;

/** Rule checks whose measured value can be recorded as a score (docs/graders.md, "Scores and categories"). */
export const SCORED_CHECKS = ["maxDurationMs", "maxTotalTokens"] as const;

export const ZRuleConfig = z
  .object({ target: ZTarget.default(null), check: ZCheck, output: ZGraderOutput.optional(), online: ZOnlineSettings.optional() })
  .strict()
  .superRefine((rule, ctx) => {
    // A rule's pass/fail is its check; it can record the value it measured as a score, nothing else.
    const output = rule.output;
    if (!output || output.type === "passFail") return;
    if (output.type === "category") {
      ctx.addIssue({ code: "custom", path: ["output", "type"], message: "a rule grader records pass/fail or a score, not a category" });
    } else if (!(SCORED_CHECKS as readonly string[]).includes(rule.check.op)) {
      ctx.addIssue({ code: "custom", path: ["output", "type"], message: `only ${SCORED_CHECKS.join(" and ")} checks measure a score` });
    } else if (output.passThreshold !== undefined) {
      ctx.addIssue({ code: "custom", path: ["output", "passThreshold"], message: "a rule grader's pass/fail is its check; it takes no threshold" });
    }
  });
export type TRuleConfig = z.infer<typeof ZRuleConfig>;

/** Judge instructions are part of every prompt; their cap is part of the prompt budget (docs/graders.md). */
export const MAX_JUDGE_INSTRUCTIONS_CHARS = 8_000;

export const ZJudgeConfig = z
  .object({
    model: z.string().trim().min(1, "model is required").max(200),
    instructions: z.string().trim().min(1, "instructions are required").max(MAX_JUDGE_INSTRUCTIONS_CHARS),
    // Our extension: what the judge reads besides the outline; null (default) = the root span's input and output.
    target: ZTarget.default(null),
    // Sampling and filter of live grading and backfills (docs/graders.md, "Online evaluation").
    online: ZOnlineSettings.optional(),
    /** Our extension: a score or category the judge also gives (docs/graders.md, "Scores and categories"). */
    output: ZGraderOutput.optional(),
  })
  .strict();
export type TJudgeConfig = z.infer<typeof ZJudgeConfig>;

export const GRADER_KINDS = ["rule", "llm_judge"] as const;
export type TGraderKind = (typeof GRADER_KINDS)[number];

/** Parses a grader's config for its kind; throws the zod error (callers map it to a 400). */
export function parseGraderConfig(kind: TGraderKind, config: unknown): TRuleConfig | TJudgeConfig {
  return kind === "rule" ? ZRuleConfig.parse(config) : ZJudgeConfig.parse(config);
}
