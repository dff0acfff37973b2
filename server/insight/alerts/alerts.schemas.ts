// Wire contracts of alerts (docs/alerts.md): rules, their versions, their events and webhook deliveries.
import { z } from "zod";
import { ZUuid, zText } from "../../shared/schemas.ts";

/**
 * What a rule watches (docs/alerts.md, "Kinds"). Each reads the dashboard's aggregates over the rule's window;
 * `pass_rate` and `mean_score` (one grader's scores) fire below their threshold, `silence` when no trace arrived,
 * the others above their threshold.
 */
export const ALERT_KINDS = ["pass_rate", "error_rate", "p95_latency", "cost_per_day", "silence", "mean_score"] as const;
export type TAlertKind = (typeof ALERT_KINDS)[number];

const ZWebhookUrl = zText(2000)
  .trim()
  .refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol === "https:" || url.protocol === "http:";
    } catch {
      return false;
    }
  }, "must be an http or https URL");

/** The fields of a rule, without defaults (a change names only what it changes). */
const ZRuleFields = z.object({
  name: zText(200).trim().min(1),
  kind: z.enum(ALERT_KINDS),
  /** One trace function, or every trace function when null. */
  traceFunctionKey: zText(1000).trim().min(1).nullable(),
  /** The grader whose scores a `mean_score` rule averages; null for every other kind. */
  graderId: ZUuid.nullable(),
  /** At least 0 but for `mean_score`, whose scores may be negative (a grader's range). */
  threshold: z.number().finite().min(-1e12).max(1e12),
  /** The window the aggregate reads, ending at the evaluation (for silence: the minutes without a trace). */
  windowMinutes: z.number().int().min(1).max(43_200),
  webhookUrl: ZWebhookUrl,
  enabled: z.boolean(),
});

/** The checks across fields, shared by a new rule and a changed one (its definition after the change). */
export function definitionIssues(r: { kind: TAlertKind; threshold: number; graderId: string | null }): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if ((r.kind === "pass_rate" || r.kind === "error_rate") && r.threshold > 1) issues.push({ path: "threshold", message: "a rate's threshold is a fraction from 0 to 1" });
  if (r.kind !== "mean_score" && r.threshold < 0) issues.push({ path: "threshold", message: "must be at least 0" });
  if (r.kind === "mean_score" && r.graderId === null) issues.push({ path: "graderId", message: "a mean_score rule names the grader whose scores it averages" });
  if (r.kind !== "mean_score" && r.graderId !== null) issues.push({ path: "graderId", message: "only a mean_score rule names a grader" });
  return issues;
}

function checkDefinition(r: { kind: TAlertKind; threshold: number; graderId: string | null }, ctx: z.RefinementCtx) {
  for (const issue of definitionIssues(r)) ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message });
}

/** A new rule. Its webhook secret is generated and answered once. */
export const ZAlertRuleCreate = ZRuleFields.extend({
  traceFunctionKey: ZRuleFields.shape.traceFunctionKey.default(null),
  graderId: ZRuleFields.shape.graderId.default(null),
  threshold: ZRuleFields.shape.threshold.default(0),
  enabled: ZRuleFields.shape.enabled.default(true),
}).superRefine(checkDefinition);
export type TAlertRuleCreate = z.output<typeof ZAlertRuleCreate>;

/** A change of a rule: the fields given replace the current ones; `rotateSecret` makes a new secret (answered once). */
export const ZAlertRuleUpdate = ZRuleFields.partial()
  .extend({ rotateSecret: z.boolean().optional() })
  .refine((r) => Object.values(r).some((v) => v !== undefined), { message: "nothing to change" });
export type TAlertRuleUpdate = z.output<typeof ZAlertRuleUpdate>;

export const ZAlertIdParams = z.object({ id: ZUuid });
export const ZAlertRestore = z.object({ version: z.number().int().min(1) });

/** The definition a version keeps (never the secret). Versions written before mean_score have no graderId. */
export const ZAlertDefinition = z.object({
  name: z.string(),
  kind: z.enum(ALERT_KINDS),
  traceFunctionKey: z.string().nullable(),
  graderId: z.string().nullable().default(null),
  threshold: z.number(),
  windowMinutes: z.number().int(),
  webhookUrl: z.string(),
  enabled: z.boolean(),
  deleted: z.boolean(),
});
export type TAlertDefinition = z.output<typeof ZAlertDefinition>;

export const ZAlertRule = ZAlertDefinition.omit({ deleted: true }).extend({
  id: z.string(),
  version: z.number().int(),
  state: z.enum(["ok", "firing"]),
  episode: z.number().int(),
  lastValue: z.number().nullable(),
  lastEvaluatedAt: z.string().nullable(),
  stateChangedAt: z.string().nullable(),
  createdAt: z.string(),
  changedAt: z.string(),
  changedByUserId: z.string().nullable(),
});
export type TAlertRule = z.output<typeof ZAlertRule>;

export const ZAlertVersion = z.object({
  version: z.number().int(),
  definition: ZAlertDefinition,
  summary: z.string(),
  changedByUserId: z.string().nullable(),
  changedVia: z.string(),
  changedAt: z.string(),
});

export const ZAlertEvent = z.object({
  id: z.string(),
  episode: z.number().int(),
  kind: z.enum(["firing", "resolved"]),
  value: z.number().nullable(),
  threshold: z.number(),
  at: z.string(),
});

export const ZAlertDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  attempt: z.number().int(),
  status: z.enum(["delivered", "failed"]),
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  at: z.string(),
});

export const ZAlertListResponse = z.object({ rules: z.array(ZAlertRule) });
/** A created rule, or one whose secret was rotated: the only answers that carry the secret. */
export const ZAlertSavedResponse = z.object({ rule: ZAlertRule, secret: z.string().nullable() });
export const ZAlertDetailResponse = z.object({
  rule: ZAlertRule,
  versions: z.array(ZAlertVersion),
  events: z.array(ZAlertEvent),
  deliveries: z.array(ZAlertDelivery),
});

/** The JSON a webhook receives (docs/alerts.md, "Webhook body"). */
export interface TAlertWebhookBody {
  event: "firing" | "resolved";
  eventId: string;
  organizationId: string;
  rule: { id: string; name: string; kind: TAlertKind; traceFunctionKey: string | null; graderId: string | null; threshold: number; windowMinutes: number };
  episode: number;
  value: number | null;
  at: string;
}
