// Evaluation of one replay trace's assertions, the body of a replay-evaluation job (docs/replay.md,
// "Complete"): the trace's effective assertions (its own, else its original's), one verdict
// per assertion, written as a trace label with labelSource "judge" on the replay trace, superseding an earlier
// one (a re-completion, or a retried job).
import { findEffectiveAssertions } from "../../../assertions/assertions.service.ts";
import type { Database } from "../../../db/client.ts";
import { findGradingSpans } from "../../../grading/grading.queries.ts";
import { recordTraceVerdict } from "../../../labels/trace-labels.service.ts";
import { evaluateAssertion, toLabelConfidence, type JudgeSettings } from "./assertion-verdict.ts";

const TX_OPTIONS = { timeout: 60_000, maxWait: 30_000 };

/** Evaluates and records the verdicts of one replay trace's assertions; returns how many were written. */
export async function judgeTraceAssertions(db: Database, organizationId: string, testRunId: string, traceId: string, judge: JudgeSettings): Promise<number> {
  const effective = await findEffectiveAssertions(db, organizationId, traceId);
  if (!effective || effective.assertions.length === 0) return 0;
  const spans = await findGradingSpans(db, organizationId, traceId);
  // The judge's limiter caps concurrent LLM calls process-wide; checks are evaluated in-process.
  const verdicts = await Promise.all(effective.assertions.map(async (a) => ({ assertionId: a.id, verdict: await evaluateAssertion(a, spans, judge) })));
  await db.transaction(async (tx) => {
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
        evidence: null,
      }, at);
    }
  }, TX_OPTIONS);
  return verdicts.length;
}
