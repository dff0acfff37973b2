// Wire contracts of the assertion endpoints (docs/api/assertions.md, with
// Reprise's own `check`).
import { z } from "zod";

const ZUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID").transform((s) => s.toLowerCase());

/** null = the whole trace; targets name spans, never span ids (docs/api/assertions.md). */
export const ZTarget = z.union([
  z.object({ kind: z.literal("output") }),
  z.object({
    kind: z.literal("span"),
    name: z.string().min(1, "must not be empty").max(500),
    occurrence: z.union([z.enum(["first", "last"]), z.number().int().min(0, "must be 0 or more")]).default("last"),
  }),
]);
export type TTarget = z.infer<typeof ZTarget>;

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** A rule grader's check grammar (docs/graders.md, "Rule graders"), shared by assertions. */
export const ZCheck = z.discriminatedUnion("op", [
  z.object({ op: z.literal("equals"), value: z.json() }),
  z.object({ op: z.literal("contains"), value: z.string() }),
  z.object({ op: z.literal("matches"), value: z.string().max(2000).refine(isRegExp, "must be a valid regular expression") }),
  z.object({ op: z.literal("noErrors") }),
  z.object({ op: z.literal("maxDurationMs"), value: z.number().nonnegative("must be 0 or more").finite() }),
  z.object({ op: z.literal("maxTotalTokens"), value: z.number().nonnegative("must be 0 or more").finite() }),
]);
export type TCheck = z.infer<typeof ZCheck>;

/** Span evidence of an assertion or a verdict: 1 to 50 `{spanId, text}` (docs/api/assertions.md, "Review"). */
export const ZEvidence = z
  .array(z.object({ spanId: ZUuid, text: z.string().min(1, "must not be empty").max(10_000, "must be at most 10000 characters") }))
  .min(1, "must hold 1 to 50 entries")
  .max(50, "must hold 1 to 50 entries");
export type TEvidence = z.infer<typeof ZEvidence>;
const ZJustification = ZEvidence;
export const ZApprovalState = z.enum(["pending", "approved", "rejected"]);
export type TApprovalState = z.infer<typeof ZApprovalState>;
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** One entry of `assertions[]`. Omitted fields are kept on edit; an explicit null clears them. */
export const ZSaveAssertion = z.object({
  id: ZUuid.optional(),
  assertion: text(20_000).refine((s) => s.trim() !== "", "must not be empty").optional(),
  passCriteria: text(20_000).nullable().optional(),
  failCriteria: text(20_000).nullable().optional(),
  targetOnEvaluatedTrace: ZTarget.nullable().optional(),
  check: ZCheck.nullable().optional(),
  category_assertion_id: ZUuid.nullable().optional(),
  justification: ZJustification.nullable().optional(),
  categoryJustification: text(20_000).nullable().optional(),
  humanNote: text(20_000).nullable().optional(),
  /** Review fields: a batch without any keeps the REST behaviour (approved); see docs/api/assertions.md. */
  approvalState: ZApprovalState.optional(),
  assigneeEmail: text(320).nullable().optional(),
});
export type TSaveAssertion = z.infer<typeof ZSaveAssertion>;

/**
 * Limits: 1 to 500 traces, 1 to 50 assertions per trace, at most 1000 in total (docs/api/assertions.md,
 * "POST /api/sdk/traces/assertions").
 */
export const ZSaveAssertionsBody = z
  .object({
    updates: z
      .array(z.object({ traceId: ZUuid, assertions: z.array(ZSaveAssertion).min(1, "must hold 1 to 50 assertions").max(50, "must hold 1 to 50 assertions") }))
      .min(1, "must hold 1 to 500 traces")
      .max(500, "must hold 1 to 500 traces"),
    source: z.enum(["agent", "human"]).default("agent"),
  })
  .superRefine((body, ctx) => {
    const total = body.updates.reduce((n, u) => n + u.assertions.length, 0);
    if (total > 1000) ctx.addIssue({ code: "custom", path: ["updates"], message: `holds ${total} assertions; at most 1000 in total` });
    const traces = new Set<string>();
    const ids = new Set<string>();
    body.updates.forEach((u, i) => {
      if (traces.has(u.traceId)) ctx.addIssue({ code: "custom", path: ["updates", i, "traceId"], message: "names a trace a second time; put all its assertions in one entry" });
      traces.add(u.traceId);
      u.assertions.forEach((a, j) => {
        if (!a.id && a.assertion === undefined) ctx.addIssue({ code: "custom", path: ["updates", i, "assertions", j, "assertion"], message: "is required for a new assertion" });
        if (a.id && ids.has(a.id)) ctx.addIssue({ code: "custom", path: ["updates", i, "assertions", j, "id"], message: "appears twice in the batch" });
        if (a.id) ids.add(a.id);
      });
    });
  });
export type TSaveAssertionsBody = z.infer<typeof ZSaveAssertionsBody>;

export const ZTraceIdParams = z.object({ traceId: z.string() });
export const ZGetAssertionsQuery = z.object({ includeUnapproved: z.enum(["true", "false"]).transform((v) => v === "true").optional() });
export const ZArchiveAssertionsBody = z.object({ assertionIds: z.array(ZUuid).min(1, "must hold 1 to 1000 ids").max(1000, "must hold 1 to 1000 ids") });

// ─── Responses ──────────────────────────────────────────────────────────────

const ZUserRef = z.object({ id: z.string(), email: z.string().nullable(), fullName: z.string().nullable() });

export const ZTraceAssertion = z.object({
  id: z.string(),
  traceId: z.string(),
  assertion: z.string(),
  passCriteria: z.string().nullable(),
  failCriteria: z.string().nullable(),
  targetOnEvaluatedTrace: ZTarget.nullable(),
  check: ZCheck.nullable(),
  source: z.enum(["agent", "human"]),
  author: ZUserRef.nullable(),
  humanNote: z.string().nullable(),
  category_assertion_id: z.string().nullable(),
  justification: ZJustification.nullable(),
  categoryJustification: z.string().nullable(),
  approvalState: ZApprovalState,
  assigneeEmail: z.string().nullable(),
  category: z.object({ id: z.string(), title: z.string() }).nullable(),
  approvedBy: ZUserRef.nullable(),
  approvedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TTraceAssertion = z.infer<typeof ZTraceAssertion>;

export const ZGetAssertionsResponse = z.object({ assertions: z.array(ZTraceAssertion), inheritedFrom: z.string().nullable() });
export const ZSaveAssertionsResponse = z.object({ assertions: z.array(ZTraceAssertion) });
export const ZArchiveAssertionsResponse = z.object({ archived: z.array(z.string()) });
