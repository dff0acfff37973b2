// Drafts from the judge model (docs/api/assertions.md, "Generation"): assertions proposed for a trace, saved
// awaiting review, and span evidence for one assertion on a trace. Both run on the model the LLM judge uses
// (OPENAI_BASE_URL, OPENAI_API_KEY, REPRISE_JUDGE_MODEL); without one configured they say what to set.
import type { TAuditActor } from "../auth/audit/audit.schemas.ts";
import { findEffectiveAssertions, findTraceLineageIds, getTraceAssertions, saveAssertions, archiveAssertions } from "../assertions/assertions.service.ts";
import { findAssertionCategories } from "../assertions/categories/categories.service.ts";
import type { TTraceAssertion } from "../assertions/assertions.schemas.ts";
import type { Database } from "../db/client.ts";
import { getEnv } from "../env.ts";
import { AppError, notFound } from "../errors.ts";
import { findGradingSpans } from "../grading/grading.queries.ts";
import { askJudge, DEFAULT_OPENAI_BASE_URL, judgeOptionsFromEnv, type JudgeOptions } from "../grading/judge.ts";
import { attachDraftEvidence } from "../labels/trace-labels.service.ts";
import { assertionDraftMessages, evidenceMessages, parseDrafts, parseEvidence } from "./generation.prompt.ts";

/** The agent asking, and who the audit log records its drafts as (the tool). */
type Auth = { organizationId: string; userId: string; actor: TAuditActor };

/** Why no model can be asked, or null when one is configured. */
export function modelProblem(options: JudgeOptions): string | null {
  if (!options.apiKey && options.baseUrl.replace(/\/+$/, "") === DEFAULT_OPENAI_BASE_URL) {
    return "No model is configured for generation: set OPENAI_API_KEY (for the OpenAI API), or OPENAI_BASE_URL for another OpenAI-compatible endpoint, and optionally REPRISE_JUDGE_MODEL; then call again.";
  }
  return null;
}

async function requireOriginal(db: Database, organizationId: string, traceId: string) {
  const lineage = await findTraceLineageIds(db, organizationId, traceId);
  if (lineage.length === 0) throw notFound(`Trace ${traceId}`);
  if (lineage.length > 1) {
    throw new AppError("bad_request", `Trace ${lineage[0]} is a replay; write assertions on its original trace ${lineage.at(-1)} instead.`);
  }
  return lineage[0]!;
}

export type GenerationResult<T> = { ok: true; value: T } | { ok: false; reason: string };

type TGenerated = GenerationResult<{ assertions: TTraceAssertion[]; reused: boolean }>;

/** Generations under way in this process, by organization and trace: a second call joins the first. */
const running = new Map<string, Promise<TGenerated>>();

/**
 * Asks the model for assertions on an original trace and saves them as an agent's drafts (pending review).
 * Without `regenerate`, a trace that already has drafts awaiting review gets them back unchanged; with it,
 * those drafts are archived and new ones drafted. A call made while a generation for the same trace is
 * running joins it and answers with its result, instead of asking the model twice.
 */
export function generateTraceAssertions(
  db: Database,
  auth: Auth,
  input: { traceId: string; guidance?: string; categoryIds?: string[]; regenerate?: boolean },
  options: JudgeOptions = judgeOptionsFromEnv(),
): Promise<TGenerated> {
  const key = `${auth.organizationId}:${input.traceId.toLowerCase()}`;
  const current = running.get(key);
  if (current) return current;
  const generation = draftTraceAssertions(db, auth, input, options).finally(() => running.delete(key));
  running.set(key, generation);
  return generation;
}

async function draftTraceAssertions(
  db: Database,
  auth: Auth,
  input: { traceId: string; guidance?: string; categoryIds?: string[]; regenerate?: boolean },
  options: JudgeOptions,
): Promise<TGenerated> {
  const traceId = await requireOriginal(db, auth.organizationId, input.traceId);
  const problem = modelProblem(options);
  if (problem) return { ok: false, reason: problem };
  const own = (await getTraceAssertions(db, auth.organizationId, traceId, { includeUnapproved: true })).assertions.filter((a) => a.traceId === traceId);
  const drafts = own.filter((a) => a.approvalState === "pending");
  if (drafts.length > 0 && !input.regenerate) return { ok: true, value: { assertions: drafts, reused: true } };
  const categories = (await findAssertionCategories(db, auth.organizationId)).categories.filter((c) => !input.categoryIds || input.categoryIds.includes(c.id));
  const spans = await findGradingSpans(db, auth.organizationId, traceId);
  const answer = await askJudge(getEnv().REPRISE_JUDGE_MODEL, assertionDraftMessages(spans, input.guidance, categories), options);
  if (!answer.ok) return { ok: false, reason: answer.reason };
  const parsed = parseDrafts(answer.content);
  if (!parsed.ok) return parsed;
  const spanIds = new Set(spans.map((s) => s.id));
  const categoryIds = new Set(categories.map((c) => c.id));
  if (drafts.length > 0) await archiveAssertions(db, auth.organizationId, auth.actor, traceId, drafts.map((d) => d.id));
  const entries = parsed.drafts.slice(0, 50).map((d) => {
    const justification = (d.justification ?? []).filter((j) => spanIds.has(j.spanId.toLowerCase())).slice(0, 50).map((j) => ({ spanId: j.spanId.toLowerCase(), text: j.text }));
    return {
      assertion: d.assertion,
      passCriteria: d.passCriteria ?? null,
      failCriteria: d.failCriteria ?? null,
      targetOnEvaluatedTrace: d.target ? (d.target.kind === "span" ? { kind: "span" as const, name: d.target.name, occurrence: "last" as const } : d.target) : null,
      justification: justification.length ? justification : null,
      category_assertion_id: d.categoryId && categoryIds.has(d.categoryId) ? d.categoryId : null,
    };
  });
  const saved = await saveAssertions(db, auth, auth.actor, { updates: [{ traceId, assertions: entries }], source: "agent" }, "agent");
  return { ok: true, value: { assertions: saved.assertions, reused: false } };
}

export interface TEvidenceItem {
  traceId: string;
  assertionId: string;
  spanId: string;
  text: string;
  spanName: string;
  spanType: string;
}

/**
 * Asks the model for span evidence of one assertion (approved, or any active one of the trace's lineage) on a
 * trace. The evidence joins the trace's current agent verdict on that assertion when it awaits validation.
 */
export async function generateLabelEvidence(
  db: Database,
  auth: Auth,
  input: { traceId: string; assertionId: string },
  options: JudgeOptions = judgeOptionsFromEnv(),
): Promise<GenerationResult<{ evidence: TEvidenceItem[]; attached: boolean }>> {
  const applying = await findEffectiveAssertions(db, auth.organizationId, input.traceId, { includeUnapproved: true });
  if (!applying) throw notFound(`Trace ${input.traceId}`);
  const lineage = await findTraceLineageIds(db, auth.organizationId, input.traceId);
  const traceId = lineage[0]!;
  const assertion = applying.assertions.find((a) => a.id === input.assertionId);
  if (!assertion) throw new AppError("bad_request", `Assertion ${input.assertionId} is not an active assertion of trace ${traceId} or of the original it replays.`);
  const problem = modelProblem(options);
  if (problem) return { ok: false, reason: problem };
  const spans = await findGradingSpans(db, auth.organizationId, traceId);
  const answer = await askJudge(getEnv().REPRISE_JUDGE_MODEL, evidenceMessages(spans, assertion), options);
  if (!answer.ok) return { ok: false, reason: answer.reason };
  const parsed = parseEvidence(answer.content);
  if (!parsed.ok) return parsed;
  const byId = new Map(spans.map((s) => [s.id, s]));
  const evidence = parsed.evidence.flatMap((e) => {
    const span = byId.get(e.spanId.toLowerCase());
    return span ? [{ traceId, assertionId: assertion.id, spanId: span.id, text: e.text, spanName: span.name, spanType: span.type }] : [];
  });
  const attached = evidence.length > 0
    ? await attachDraftEvidence(db, { organizationId: auth.organizationId, traceId, assertionId: assertion.id }, evidence.map((e) => ({ spanId: e.spanId, text: e.text })))
    : false;
  return { ok: true, value: { evidence, attached } };
}
