// Evaluation of a completed replay run (http-interface.md "POST /api/sdk/replay/complete"; decisions.md
// "Graders", "Assertions (decisions)", "Precise rules"):
// 1. grading: each final replay trace by the run's graders (graderIds + the datasets' active graders), as
//    durable jobs on the graders' queue (enqueueGrading); the grading worker writes the grader labels;
// 2. when the run was started with judgeAssertions (the default): each final replay trace's effective
//    assertions (its own, else its original's) are evaluated here, one verdict per assertion, written as a
//    trace label with labelSource "judge" on the replay trace, superseding an earlier one (re-completion).
import { findEffectiveAssertions } from "../../assertions/assertions.service.ts";
import type { Database } from "../../db/client.ts";
import { getEnv } from "../../env.ts";
import { findGradingSpans } from "../../grading/grading.queries.ts";
import { enqueueGrading } from "../../grading/grading.service.ts";
import { recordTraceVerdict } from "../../labels/trace-labels.service.ts";
import { idList, type TExperimentRow } from "../experiments.service.ts";
import type { TRunTraceRow } from "../run-traces.queries.ts";
import { evaluateAssertion, toLabelConfidence, type JudgeSettings } from "./assertion-verdict.ts";

/** Traces judged at once; LLM calls are further capped process-wide by the judge's limiter. */
const TRACE_CONCURRENCY = 4;
const TX_OPTIONS = { timeout: 60_000, maxWait: 30_000 };

export interface EvaluateOptions {
  judge?: JudgeSettings;
}

export async function evaluateReplayRun(
  db: Database,
  organizationId: string,
  experiment: TExperimentRow,
  traces: TRunTraceRow[],
  options: EvaluateOptions = {},
): Promise<void> {
  // A trace still pending has not all its spans; grading and judging wait for its final state.
  const final = traces.filter((t) => t.status === "completed" || t.status === "failed");
  const graderIds = idList(experiment.graderIds);
  if (graderIds.length > 0 && final.length > 0) {
    await enqueueGrading(db, final.map((t) => ({ organizationId, traceId: t.id, graderIds })));
  }
  if (!experiment.judgeAssertions) return;
  const judge = options.judge ?? { model: getEnv().REPRISE_JUDGE_MODEL };
  for (let i = 0; i < final.length; i += TRACE_CONCURRENCY) {
    await Promise.all(final.slice(i, i + TRACE_CONCURRENCY).map((t) => judgeTraceAssertions(db, organizationId, experiment.id, t.id, judge)));
  }
}

/** Evaluates and records the verdicts of one replay trace's assertions; returns how many were written. */
export async function judgeTraceAssertions(db: Database, organizationId: string, testRunId: string, traceId: string, judge: JudgeSettings) {
  const effective = await findEffectiveAssertions(db.prisma, organizationId, traceId);
  if (!effective || effective.assertions.length === 0) return 0;
  const spans = await findGradingSpans(db, organizationId, traceId);
  const verdicts = await Promise.all(effective.assertions.map(async (a) => ({ assertionId: a.id, verdict: await evaluateAssertion(a, spans, judge) })));
  await db.prisma.$transaction(async (tx) => {
    const at = new Date();
    for (const { assertionId, verdict } of verdicts) {
      await recordTraceVerdict(tx, {
        organizationId,
        traceId,
        assertionId,
        labelStatus: verdict.label === null ? "errored" : "labeled",
        label: verdict.label,
        annotation: verdict.reason ?? verdict.failureDiagnostic,
        confidence: toLabelConfidence(verdict.confidence),
        labelSource: "judge",
        approved: false,
        approvedByUserId: null,
        authorUserId: null,
        testRunId,
      }, at);
    }
  }, TX_OPTIONS);
  return verdicts.length;
}
