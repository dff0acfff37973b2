// One experiment's report (docs/api/replay.md, "Experiment report"): its summary and group, totals of its
// replay traces, the change against the originals (fixed, regressed, …), each grader's pass rate, and each
// assertion's results with the verdicts' evidence. Built over the same comparison the console's replay page
// reads (getExperimentComparison), page by page.
import type { Database } from "../../db/client.ts";
import type { TEvidence } from "../../assertions/assertions.schemas.ts";
import type { TExperimentSummary } from "./experiment-list.service.ts";
import { classifyReplay, experimentComparisonPages, type TReplayVerdict } from "./experiment-traces.service.ts";
import * as g from "./groups.queries.ts";

export interface TAssertionResult {
  traceId: string;
  originalTraceId: string;
  attempt: number | null;
  labelStatus: string;
  label: boolean | null;
  labelSource: string | null;
  annotation: string | null;
  evidence: TEvidence | null;
}

export interface TExperimentReport {
  experiment: TExperimentSummary;
  group: { id: string; name: string | null } | null;
  totals: { replays: number; completed: number; failed: number; pending: number; passing: number; failing: number; unlabeled: number };
  delta: Record<TReplayVerdict, number>;
  /** `scored`, `meanScore` and `categories`: the graders' scores and categories (docs/graders.md, "Scores and categories"). */
  graders: {
    graderId: string; graderName: string | null; passed: number; failed: number; errored: number; passRate: number | null;
    scored: number; meanScore: number | null; categories: Record<string, number>;
  }[];
  assertions: { assertionId: string; assertion: string; passed: number; failed: number; errored: number; unlabeled: number; results: TAssertionResult[] }[];
}

const labelOf = (v: { labelStatus: string; label: boolean | null } | null | undefined) => (v?.labelStatus === "labeled" ? v.label : null);

export async function getExperimentReport(db: Database, organizationId: string, experimentId: string): Promise<TExperimentReport> {
  const totals = { replays: 0, completed: 0, failed: 0, pending: 0, passing: 0, failing: 0, unlabeled: 0 };
  const delta: Record<TReplayVerdict, number> = { fixed: 0, regressed: 0, "still-passing": 0, "still-failing": 0, unpaired: 0 };
  const graders = new Map<string, TExperimentReport["graders"][number]>();
  const assertions = new Map<string, TExperimentReport["assertions"][number]>();
  let experiment: TExperimentSummary | undefined;
  for await (const page of experimentComparisonPages(db, organizationId, experimentId)) {
    experiment = page.experiment;
    for (const item of page.items) {
      for (const replay of item.replays) {
        totals.replays += 1;
        const status = replay.outline.status;
        if (status === "completed") totals.completed += 1;
        else if (status === "failed") totals.failed += 1;
        else totals.pending += 1;
        const label = labelOf(replay.verdict);
        if (label === true) totals.passing += 1;
        else if (label === false) totals.failing += 1;
        else totals.unlabeled += 1;
        delta[item.original ? classifyReplay(labelOf(item.original.verdict), label) : "unpaired"] += 1;
        for (const l of replay.graderLabels) {
          const s = graders.get(l.graderId) ?? { graderId: l.graderId, graderName: l.graderName, passed: 0, failed: 0, errored: 0, passRate: null, scored: 0, meanScore: null, categories: {} };
          if (l.label === true) s.passed += 1;
          else if (l.label === false) s.failed += 1;
          else if (l.failureDiagnostic !== null || (l.score === null && l.category === null)) s.errored += 1;
          if (l.score !== null) {
            s.meanScore = ((s.meanScore ?? 0) * s.scored + l.score) / (s.scored + 1);
            s.scored += 1;
          }
          if (l.category !== null) s.categories[l.category] = (s.categories[l.category] ?? 0) + 1;
          graders.set(l.graderId, s);
        }
        for (const a of replay.verdict?.assertions ?? []) {
          const s = assertions.get(a.assertionId) ?? { assertionId: a.assertionId, assertion: a.assertion, passed: 0, failed: 0, errored: 0, unlabeled: 0, results: [] };
          if (a.labelStatus === "errored") s.errored += 1;
          else if (a.labelStatus === "labeled" && a.label === true) s.passed += 1;
          else if (a.labelStatus === "labeled" && a.label === false) s.failed += 1;
          else s.unlabeled += 1;
          s.results.push({ traceId: replay.traceId, originalTraceId: item.originalTraceId, attempt: replay.attempt, labelStatus: a.labelStatus, label: a.label, labelSource: a.labelSource, annotation: a.annotation, evidence: a.evidence });
          assertions.set(a.assertionId, s);
        }
      }
    }
  }
  for (const s of graders.values()) s.passRate = s.passed + s.failed > 0 ? s.passed / (s.passed + s.failed) : null;
  const groupRow = experiment!.experimentGroupId ? await g.selectGroup(db, organizationId, experiment!.experimentGroupId) : null;
  return {
    experiment: experiment!,
    group: groupRow ? { id: groupRow.id, name: groupRow.name } : null,
    totals,
    delta,
    graders: [...graders.values()],
    assertions: [...assertions.values()],
  };
}
