// Tolerant tool arguments. Several MCP clients stringify non-string arguments ("[\"a\",\"b\"]", "5", "true"),
// so every array, number, boolean or object argument also accepts its JSON text. Unknown keys are
// ignored (z.object strips them), because the plugins add keys of their own (docs/mcp.md, "Arguments").
import { z } from "zod";

/** Parses a string as JSON before validating with `schema`; anything else goes through unchanged. */
export function fromJsonText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, schema);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A canonical id (any UUID version), lowercased. */
export const zId = z
  .string()
  .trim()
  .regex(UUID_RE, "must be a UUID")
  .transform((s) => s.toLowerCase());

/** 1 to `max` ids, as a list or its JSON text; duplicates collapse to the first. */
export const zIds = (max: number) =>
  fromJsonText(z.array(zId).min(1, `give 1 to ${max} ids`).max(max, `give 1 to ${max} ids`)).transform((ids) => [...new Set(ids)]);

export const zInt = (min: number, max: number) => fromJsonText(z.number().int().min(min).max(max));
export const zBool = fromJsonText(z.boolean());
export const zText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

/** The experiment an argument names: newer plugins say experimentId, older ones testRunId (both may arrive). */
export const experimentArgs = {
  experimentId: zId.optional().describe("The experiment (replay run) id."),
  testRunId: zId.optional().describe("Older name of experimentId."),
};
export function experimentOf(args: { experimentId?: string; testRunId?: string }): string | undefined {
  return args.experimentId ?? args.testRunId;
}

/** Span evidence: 1 to 50 `{spanId, text}` (spanId from the `[ID: …]` of get_traces); null clears, omitted keeps. */
export const zEvidenceArg = fromJsonText(
  z.array(z.object({ spanId: zId, text: zText(10_000).min(1, "must not be empty") })).min(1, "give 1 to 50 entries").max(50, "give 1 to 50 entries"),
)
  .nullable()
  .optional()
  .describe("Span evidence [{spanId, text}] (1–50); null clears, omitted keeps.");
