// What a rule measures (docs/alerts.md, "Kinds"), read with the dashboard's own statements over the rule's window,
// so an alert's figure is the dashboard's figure for the same range and trace function.
import type { DbClient } from "../../db/client.ts";
import { selectByFunction, selectGraderBuckets, selectGraderScoreBuckets, type TDashboardScope } from "../dashboard/dashboard.queries.ts";
import type { TAlertKind } from "./alerts.schemas.ts";

export interface TMeasured {
  /** The figure (null: nothing to measure in the window, which neither fires nor resolves). */
  value: number | null;
  /** Whether the figure breaches the threshold. */
  breached: boolean;
}

export interface TMeasuredRule {
  organizationId: string;
  kind: TAlertKind;
  traceFunctionKey: string | null;
  graderId: string | null;
  threshold: number;
  windowMinutes: number;
}

function scopeOf(rule: TMeasuredRule, now: Date): TDashboardScope {
  const seconds = rule.windowMinutes * 60;
  return {
    organizationId: rule.organizationId,
    from: new Date(now.getTime() - seconds * 1000),
    to: now,
    traceFunctionKey: rule.traceFunctionKey ?? undefined,
    stepSeconds: seconds,
  };
}

const above = (value: number | null, threshold: number): TMeasured => ({ value, breached: value !== null && value > threshold });

export async function measureRule(db: DbClient, rule: TMeasuredRule, now: Date): Promise<TMeasured> {
  const scope = scopeOf(rule, now);
  if (rule.kind === "pass_rate") {
    // Every grader's passes and failures of the traces that started in the window (one bucket: the window).
    const rows = await selectGraderBuckets(db, scope);
    const pass = rows.reduce((n, r) => n + r.pass, 0);
    const fail = rows.reduce((n, r) => n + r.fail, 0);
    const value = pass + fail > 0 ? pass / (pass + fail) : null;
    return { value, breached: value !== null && value < rule.threshold };
  }
  if (rule.kind === "mean_score") {
    // The dashboard's score distribution with one bucket, the window: its mean is the mean of the grader's scores
    // of the traces that started in it (the dashboard's "Scores" chart, for the same range and trace function).
    const rows = await selectGraderScoreBuckets(db, scope);
    const scored = rows.filter((r) => r.graderId === rule.graderId && r.category === null);
    const count = scored.reduce((n, r) => n + r.count, 0);
    const value = count > 0 ? scored.reduce((sum, r) => sum + (r.mean ?? 0) * r.count, 0) / count : null;
    return { value, breached: value !== null && value < rule.threshold };
  }
  const totals = (await selectByFunction(db, scope)).find((r) => r.total);
  const traces = totals?.traces ?? 0;
  switch (rule.kind) {
    case "silence":
      return { value: traces, breached: traces === 0 };
    case "error_rate":
      return above(traces > 0 ? (totals?.errors ?? 0) / traces : null, rule.threshold);
    case "p95_latency":
      return above(totals?.p95 ?? null, rule.threshold);
    case "cost_per_day":
      // The window's cost, scaled to a day: a one-hour window at $2 is $48 a day.
      return above(((totals?.costUsd ?? 0) * 1440) / rule.windowMinutes, rule.threshold);
  }
}
