// An organization's redaction rules (docs/operations.md, "Redaction"): built-in detectors, custom regular
// expressions (checked for catastrophic backtracking before they are accepted) and field names or JSON paths
// whose values are always masked.
import { z } from "zod";
import { checkSafePattern } from "./safe-pattern.ts";

export const BUILTIN_RULES = ["secrets", "emails", "creditCards", "phones"] as const;
export type TBuiltinRule = (typeof BUILTIN_RULES)[number];

export const MAX_PATTERNS = 50;
export const MAX_FIELDS = 100;
export const MAX_PATTERN_LENGTH = 256;

const ZPatternRule = z
  .object({
    name: z.string().trim().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1-64 letters, digits, '_', '.' or '-'"),
    pattern: z.string().min(1, "must not be empty").max(MAX_PATTERN_LENGTH, `must be at most ${MAX_PATTERN_LENGTH} characters`),
    /** i (ignore case), m, s, u; g is always on. */
    flags: z.string().regex(/^[imsu]{0,4}$/, "may only hold the flags i, m, s and u").default(""),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const problem = checkSafePattern(rule.pattern, rule.flags);
    if (problem) ctx.addIssue({ code: "custom", path: ["pattern"], message: problem });
  });

/**
 * A field rule: a key name matched at any depth, case-insensitively (an attribute such as `user.email`, a JSON
 * key such as `password`), or a JSON path from the span document (`$.span_data.input.card`, `*` for any key).
 */
const ZFieldRule = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(256)
  .refine((f) => !f.startsWith("$") || /^\$(\.[^.\s]+)+$/.test(f), "a JSON path is $ followed by .key segments, e.g. $.span_data.input.password");

export const ZRedactionRules = z
  .object({
    builtins: z.array(z.enum(BUILTIN_RULES)).max(BUILTIN_RULES.length).default([]),
    patterns: z.array(ZPatternRule).max(MAX_PATTERNS).default([]),
    fields: z.array(ZFieldRule).max(MAX_FIELDS).default([]),
  })
  .strict()
  .superRefine((rules, ctx) => {
    const names = new Set<string>();
    rules.patterns.forEach((p, i) => {
      if (names.has(p.name)) ctx.addIssue({ code: "custom", path: ["patterns", i, "name"], message: `duplicate rule name ${p.name}` });
      names.add(p.name);
    });
  });
export type TRedactionRules = z.output<typeof ZRedactionRules>;
export type TRedactionRulesInput = z.input<typeof ZRedactionRules>;

export const EMPTY_RULES: TRedactionRules = { builtins: [], patterns: [], fields: [] };

export const ZSaveRedactionBody = z.object({ rules: ZRedactionRules }).strict();
export const ZRestoreRedactionBody = z.object({ version: z.number().int().min(1) }).strict();

/** What the REST and tRPC reads answer: the current rules and the history, newest first. */
export interface TRedactionVersion {
  version: number;
  rules: TRedactionRules;
  authorUserId: string | null;
  authorEmail: string | null;
  restoredFrom: number | null;
  createdAt: string;
}
export interface TRedactionSettings {
  version: number;
  rules: TRedactionRules;
  versions: TRedactionVersion[];
}

const ZRulesOut = z.object({ builtins: z.array(z.string()), patterns: z.array(z.object({ name: z.string(), pattern: z.string(), flags: z.string() })), fields: z.array(z.string()) });
const ZVersionOut = z.object({
  version: z.number().int(),
  rules: ZRulesOut,
  authorUserId: z.string().nullable(),
  authorEmail: z.string().nullable(),
  restoredFrom: z.number().int().nullable(),
  createdAt: z.string(),
});
export const ZRedactionSettingsResponse = z.object({ version: z.number().int(), rules: ZRulesOut, versions: z.array(ZVersionOut) });
