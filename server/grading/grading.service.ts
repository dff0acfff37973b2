// Grading use cases: evaluate a grader on a trace, grade a trace now, or enqueue durable
// grading jobs. Grading only ever reads completed (or failed) traces: "Grading starts after" completion
// (docs/graders.md, "When grading happens"), and it is withheld while a trace is pending.
import type { DbClient } from "../db/client.ts";
import type { Database } from "../db/client.ts";
import { newId, uuidV5 } from "../ids.ts";
import { findGraderRowsByIds, type GraderRow } from "../graders/graders.queries.ts";
import type { JobToInsert } from "../jobs/queue.ts";
import { evaluateRule } from "./checks.ts";
import { erroredVerdict, type TGradingSpan, type TVerdict } from "./grading.schemas.ts";
import { ZJudgeConfig, ZRuleConfig } from "../graders/grader-config.schemas.ts";
import { findGradingSpans, findGradingTrace, upsertGraderLabel, type GradingTrace } from "./grading.queries.ts";
import { GRADING_QUEUE, gradingJobClient, type TGradingJob } from "./grading.queues.ts";
import { judgeOptionsFromEnv, judgeTrace, type JudgeOptions } from "./judge.ts";

/** Why a trace is not graded, or null when it may be. */
export function whyNotGradable(trace: GradingTrace | null): string | null {
  if (!trace) return "the trace does not exist";
  if (trace.status !== "completed" && trace.status !== "failed") return `the trace is not completed (status ${trace.status})`;
  return null;
}

/** One grader's verdict on one trace's spans. A stored config that no longer parses is an errored verdict. */
export async function evaluateGrader(grader: Pick<GraderRow, "kind" | "config">, spans: TGradingSpan[], judge?: JudgeOptions): Promise<TVerdict> {
  if (grader.kind === "rule") {
    const config = ZRuleConfig.safeParse(grader.config);
    return config.success ? evaluateRule(spans, config.data) : erroredVerdict(`The rule grader's config is invalid: ${config.error.issues[0]?.message}`);
  }
  if (grader.kind === "llm_judge") {
    const config = ZJudgeConfig.safeParse(grader.config);
    return config.success ? judgeTrace(config.data, spans, judge ?? judgeOptionsFromEnv()) : erroredVerdict(`The judge grader's config is invalid: ${config.error.issues[0]?.message}`);
  }
  return erroredVerdict(`Unknown grader kind "${grader.kind}".`);
}

export type GradeTraceResult =
  | { status: "graded"; verdicts: { graderId: string; graderName: string; graderVersion: number; verdict: TVerdict }[] }
  | { status: "skipped"; reason: string };

/**
 * Grades a trace now with the given graders (of the organization; others are ignored) and writes one
 * grader label per grader (source live_grader, evaluatedAt now), replacing earlier ones. For replays,
 * prefer enqueueGrading (durable); this is for callers that need the verdicts in hand.
 */
export async function gradeTrace(
  db: Database,
  organizationId: string,
  traceId: string,
  graderIds: string[],
  options: { judge?: JudgeOptions } = {},
): Promise<GradeTraceResult> {
  const trace = await findGradingTrace(db, organizationId, traceId);
  const skip = whyNotGradable(trace);
  if (skip) return { status: "skipped", reason: skip };
  const [spans, graders] = await Promise.all([findGradingSpans(db, organizationId, traceId), findGraderRowsByIds(db, organizationId, graderIds)]);
  const verdicts = await Promise.all(
    graders.map(async (g) => ({ graderId: g.id, graderName: g.name, graderVersion: g.version, verdict: await evaluateGrader(g, spans, options.judge) })),
  );
  const evaluatedAt = new Date();
  await db.transaction(async (tx) => {
    for (const v of verdicts) await upsertGraderLabel(tx, newId(), { organizationId, traceId, graderId: v.graderId, graderVersion: v.graderVersion, verdict: v.verdict, source: "live_grader", evaluatedAt });
  });
  return { status: "graded", verdicts };
}

export interface GradingRequest {
  organizationId: string;
  traceId: string;
  graderIds: string[];
  /** Makes the enqueue idempotent: the same key enqueues each (trace, grader) once (e.g. "replay:<testRunId>"). */
  dedupeKey?: string;
  /** A dataset re-run whose progress the jobs report to. */
  runId?: string;
}

/** Grading jobs for requests: one per (trace, grader), singleton-keyed so a pair never runs twice at once. */
export function gradingJobs(requests: GradingRequest[]): JobToInsert<TGradingJob>[] {
  return requests.flatMap((r) =>
    r.graderIds.map((graderId) => ({
      id: r.dedupeKey ? uuidV5(`${r.dedupeKey}:${r.organizationId}:${r.traceId}:${graderId}`) : undefined,
      singletonKey: `${r.organizationId}:${r.traceId}:${graderId}`,
      data: { organizationId: r.organizationId, traceId: r.traceId, graderId, ...(r.runId ? { runId: r.runId } : {}) },
    })),
  );
}

/**
 * Enqueues durable grading (the worker writes the labels). Pass `tx` to enqueue atomically with the
 * caller's own writes (e.g. replay/complete).
 */
export async function enqueueGrading(db: Database, requests: GradingRequest[], tx?: DbClient): Promise<number> {
  const jobs = gradingJobs(requests);
  const client = await gradingJobClient(db);
  await client.insert(GRADING_QUEUE, jobs, tx);
  return jobs.length;
}
