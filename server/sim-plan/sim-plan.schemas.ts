// Wire contracts of the sim plan (docs/api/sim-plan.md; the POST is
// Reprise's own addition).
import { z } from "zod";
import { zText } from "../shared/schemas.ts";

export const ZSimPlanNode = z.object({
  traceFunctionKey: z.string(),
  name: z.string(),
  captureContent: z.literal(false),
});
export type TSimPlanNode = z.output<typeof ZSimPlanNode>;

/**
 * Same cap as ingestion puts on span names and keys (server/ingest/write/span-fields.ts MAX_KEY_LENGTH): a longer
 * name could never match a recorded span, and would overflow the btree key of the decisions table.
 */
const MAX_NODE_PART = 400;

export const ZSimPlanDecision = z.object({
  traceFunctionKey: zText(MAX_NODE_PART).min(1),
  name: zText(MAX_NODE_PART).min(1),
  captureContent: z.boolean(),
});
export type TSimPlanDecision = z.output<typeof ZSimPlanDecision>;

export const ZSimPlanPost = z.object({ decisions: z.array(ZSimPlanDecision).min(1).max(1000) });

export const ZRefusedDecision = z.object({ traceFunctionKey: z.string(), name: z.string(), reason: z.string() });
export type TRefusedDecision = z.output<typeof ZRefusedDecision>;

export const ZSimPlanResponse = z.object({ nodes: z.array(ZSimPlanNode) });
export const ZSimPlanNodeRef = z.object({ traceFunctionKey: z.string(), name: z.string() });
export type TSimPlanNodeRef = z.output<typeof ZSimPlanNodeRef>;
/** `cascaded`: the nodes beneath a node turned off, turned off with it. */
export const ZSimPlanPostResponse = z.object({ nodes: z.array(ZSimPlanNode), refused: z.array(ZRefusedDecision), cascaded: z.array(ZSimPlanNodeRef) });

export const ZLockReason = z.enum(["root", "framework", "imported", "service_name"]);
export type TLockReason = z.output<typeof ZLockReason>;

/** A node as the console shows it: what was recorded, what was decided, and why it may be locked. */
export const ZSimPlanNodeStats = z.object({
  traceFunctionKey: z.string(),
  name: z.string(),
  spanCount: z.number().int(),
  /** Spans stored without content because the plan turned it off; they still count as recorded. */
  contentOffSpanCount: z.number().int(),
  /** The stored decision, or null when none was made (capture on). */
  decision: z.boolean().nullable(),
  /** What SDKs are told: false only for an unlocked node decided off. */
  captureContent: z.boolean(),
  locked: z.boolean(),
  lockReasons: z.array(ZLockReason),
  /** Who made the stored decision last (name, else email; null for a key without a user) and when. */
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type TSimPlanNodeStats = z.output<typeof ZSimPlanNodeStats>;
