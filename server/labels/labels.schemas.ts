// Wire contracts of the label endpoints (docs/api/labels.md).
import { z } from "zod";
import { ZEvidence } from "../assertions/assertions.schemas.ts";
import { queryInt } from "../shared/schemas.ts";

const ZUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID").transform((s) => s.toLowerCase());
/** A trace id as the caller knows it: the canonical UUID, or an SDK source id (mapped as ingestion maps it). */
const ZTraceRef = z.string().min(1, "must not be empty").max(500);
export const ZConfidence = z.enum(["VeryLow", "Low", "Medium", "High", "VeryHigh"]);
const ZAnnotation = z.string().max(20_000, "must be at most 20000 characters").nullable().optional();

/**
 * One agent verdict (docs/api/labels.md, "POST /api/sdk/traces/labels"): exactly one of traceId / originalTraceId
 * (sourceTraceId is its deprecated alias), `attempt` only with originalTraceId, and exactly one mode: verdict, skip
 * or archive.
 */
export const ZAgentLabelEntry = z
  .object({
    traceId: ZTraceRef.optional(),
    originalTraceId: ZTraceRef.optional(),
    sourceTraceId: ZTraceRef.optional(),
    attempt: z.number().int().min(0, "must be 0 or more").optional(),
    assertionId: ZUuid.nullable().optional(),
    label: z.boolean().optional(),
    annotation: ZAnnotation,
    confidence: ZConfidence.nullable().optional(),
    /** Span evidence (docs/api/labels.md): null clears, omitted keeps the current verdict's. */
    evidence: ZEvidence.nullable().optional(),
    skip: z.boolean().optional(),
    archive: z.boolean().optional(),
  })
  .superRefine((e, ctx) => {
    const keys = [e.traceId, e.originalTraceId ?? e.sourceTraceId].filter((k) => k !== undefined).length;
    if (keys !== 1 || (e.originalTraceId !== undefined && e.sourceTraceId !== undefined)) {
      ctx.addIssue({ code: "custom", path: ["traceId"], message: "give exactly one of traceId or originalTraceId" });
    }
    if (e.attempt !== undefined && e.traceId !== undefined) {
      ctx.addIssue({ code: "custom", path: ["attempt"], message: "is only allowed with originalTraceId" });
    }
    const modes = [e.label !== undefined, e.skip === true, e.archive === true].filter(Boolean).length;
    if (modes !== 1) ctx.addIssue({ code: "custom", path: ["label"], message: "give exactly one of label (a verdict), skip: true or archive: true" });
  });
export type TAgentLabelEntry = z.infer<typeof ZAgentLabelEntry>;

const VERDICTS = "must hold 1 to 200 verdicts";

export const ZAgentLabelsBody = z
  .object({
    labels: z.array(ZAgentLabelEntry).min(1, VERDICTS).max(200, VERDICTS),
    testRunId: ZUuid.optional(),
    /** Newer SDKs say experiment for test run (docs/api/replay.md). */
    experimentId: ZUuid.optional(),
  })
  .transform(({ experimentId, ...body }) => ({ ...body, testRunId: body.testRunId ?? experimentId }))
  .superRefine((body, ctx) => {
    body.labels.forEach((e, i) => {
      if (e.traceId === undefined && !body.testRunId) {
        ctx.addIssue({ code: "custom", path: ["labels", i, "originalTraceId"], message: "needs the top-level testRunId of the replay" });
      }
    });
  });
export type TAgentLabelsBody = z.infer<typeof ZAgentLabelsBody>;

export const ZHumanLabelEntry = z.object({
  traceId: ZTraceRef,
  assertionId: ZUuid.nullable().optional(),
  label: z.boolean(),
  annotation: ZAnnotation,
  confidence: ZConfidence.nullable().optional(),
  evidence: ZEvidence.nullable().optional(),
});
export type THumanLabelEntry = z.infer<typeof ZHumanLabelEntry>;
export const ZHumanLabelsBody = z.object({ labels: z.array(ZHumanLabelEntry).min(1, VERDICTS).max(200, VERDICTS) });

/** Comma-separated ids, 1 to `max` (docs/api.md, "Common rules": Limits); duplicates collapse to the first. */
export const idList = (max: number) =>
  z
    .string()
    .transform((s) => [...new Set(s.split(",").map((id) => id.trim()).filter((id) => id !== ""))])
    .pipe(z.array(z.string().max(500)).min(1, `must hold 1 to ${max} comma-separated ids`).max(max, `must hold 1 to ${max} comma-separated ids`));

export const ZTraceLabelsQuery = z.object({ traceIds: idList(100) });

export const ZGraderLabelsQuery = z.object({
  traceIds: idList(100).optional(),
  graderId: z.string().max(200).optional(),
  /** Only for grader-only reads; range-checked always (docs/api.md, "Common rules": a broken limit is a 400). */
  limit: queryInt(1, 200).optional(),
});
export type TGraderLabelsQuery = z.infer<typeof ZGraderLabelsQuery>;

// ─── Responses ──────────────────────────────────────────────────────────────

export const ZLabelAction = z.enum(["set", "skipped", "archived", "no-active-label"]);
export const ZAgentLabelsResponse = z.object({
  labels: z.array(
    z.object({
      key: z.string(),
      traceId: z.string().nullable(),
      action: ZLabelAction,
      /** Present (true) when a replay verdict did not resolve to a replay trace; nothing was written. */
      unresolved: z.boolean().optional(),
    }),
  ),
});
export const ZHumanLabelsResponse = z.object({
  labels: z.array(z.object({ traceId: z.string(), assertionId: z.string().nullable(), label: z.boolean(), action: ZLabelAction })),
});

const ZLabelSource = z.enum(["human", "agent", "judge"]);
export const ZAssertionLabel = z.object({
  assertionId: z.string(),
  assertion: z.string(),
  labelStatus: z.enum(["labeled", "skipped", "errored", "unlabeled"]),
  label: z.boolean().nullable(),
  annotation: z.string().nullable(),
  confidence: z.string().nullable(),
  labelSource: ZLabelSource.nullable(),
  approved: z.boolean(),
  evidence: ZEvidence.nullable(),
});
export const ZTraceLabels = z.object({
  traceId: z.string(),
  labelStatus: z.enum(["labeled", "skipped", "errored", "unlabeled"]),
  label: z.boolean().nullable(),
  annotation: z.string().nullable(),
  confidence: z.string().nullable(),
  approved: z.boolean(),
  labelSource: ZLabelSource.nullable(),
  evidence: ZEvidence.nullable(),
  passed: z.number().int(),
  failed: z.number().int(),
  assertions: z.array(ZAssertionLabel),
});
export type TTraceLabels = z.infer<typeof ZTraceLabels>;
export const ZTraceLabelsResponse = z.object({ labels: z.array(ZTraceLabels), unresolvedTraceIds: z.array(z.string()) });

export const ZGraderLabel = z.object({
  traceId: z.string(),
  graderId: z.string(),
  graderName: z.string().nullable(),
  graderStatus: z.string(),
  /** The grader's version that produced this label (docs/graders.md, "History"). */
  graderVersion: z.number().int().positive(),
  label: z.boolean().nullable(),
  labelReason: z.string().nullable(),
  failureDiagnostic: z.string().nullable(),
  labelConfidence: z.string().nullable(),
  source: z.enum(["human", "live_grader"]),
  evaluatedAt: z.string().nullable(),
  /** Our extension (docs/api/labels.md, "Scores"): the score or category beside the label; null when none. */
  score: z.number().nullable(),
  category: z.string().nullable(),
});
export type TGraderLabel = z.infer<typeof ZGraderLabel>;

/**
 * One score, category or pass/fail a person (or an agent, through a user's key) records on a grader for a trace
 * (docs/api/labels.md, "POST /api/sdk/graderLabels"). Checked against the grader's declared output.
 */
export const ZGraderLabelWrite = z
  .object({
    traceId: ZTraceRef,
    graderId: ZUuid,
    label: z.boolean().nullable().optional(),
    score: z.number().finite("must be a finite number").nullable().optional(),
    category: z.string().trim().min(1, "must not be empty").max(100).nullable().optional(),
    reason: z.string().max(2_000, "must be at most 2000 characters").nullable().optional(),
  })
  .strict()
  .refine((e) => e.label != null || e.score != null || e.category != null, { path: ["label"], message: "give a label, a score or a category" });
export type TGraderLabelWrite = z.infer<typeof ZGraderLabelWrite>;
export const ZGraderLabelWritesBody = z.object({ labels: z.array(ZGraderLabelWrite).min(1, VERDICTS).max(200, VERDICTS) }).strict();

export const ZGraderLabelWritten = z.object({
  traceId: z.string(),
  graderId: z.string(),
  label: z.boolean().nullable(),
  score: z.number().nullable(),
  category: z.string().nullable(),
  action: z.literal("set"),
});
export const ZGraderLabelWritesResponse = z.object({ labels: z.array(ZGraderLabelWritten) });

/** A grader label of a trace as it is now or was before a later write replaced it (the trace page's history). */
export const ZGraderLabelHistoryEntry = z.object({
  id: z.string().nullable(),
  graderId: z.string(),
  graderName: z.string().nullable(),
  graderVersion: z.number().int(),
  label: z.boolean().nullable(),
  score: z.number().nullable(),
  category: z.string().nullable(),
  reason: z.string().nullable(),
  failureDiagnostic: z.string().nullable(),
  source: z.enum(["human", "live_grader"]),
  /** A human label's author (name or email); null for a grading. */
  decidedBy: z.string().nullable(),
  decidedVia: z.string().nullable(),
  evaluatedAt: z.string().nullable(),
  state: z.enum(["current", "replaced"]),
  replacedAt: z.string().nullable(),
});
export type TGraderLabelHistoryEntry = z.infer<typeof ZGraderLabelHistoryEntry>;
export const ZGraderLabelsResponse = z.object({ labels: z.array(ZGraderLabel) });

/** One verdict of a trace's history (the console's trace page; docs/graders.md, "Verdict history"). */
export const ZVerdictHistoryEntry = z.object({
  id: z.string(),
  assertionId: z.string().nullable(),
  assertion: z.string().nullable(),
  labelStatus: z.enum(["labeled", "skipped", "errored", "archived"]),
  label: z.boolean().nullable(),
  annotation: z.string().nullable(),
  confidence: z.string().nullable(),
  labelSource: z.enum(["human", "agent", "judge"]),
  /** The user who recorded it (an agent's: the user whose key it used); null for the judge or a deleted user. */
  decidedBy: z.string().nullable(),
  decidedAt: z.string(),
  testRunId: z.string().nullable(),
  /** A person's approval or rejection of an agent verdict. */
  review: z.object({ state: z.enum(["approved", "rejected"]), by: z.string().nullable(), at: z.string().nullable() }).nullable(),
  /** current; replaced by a later verdict on the same target; withdrawn (cleared or undone) with none in its place. */
  state: z.enum(["current", "replaced", "withdrawn"]),
  endedAt: z.string().nullable(),
  replacedById: z.string().nullable(),
});
export type TVerdictHistoryEntry = z.infer<typeof ZVerdictHistoryEntry>;
