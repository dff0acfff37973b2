// What a reviewer sees beside a proposed assertion (docs/console.md, "Review"): the trace's input and output,
// the span its target picks (resolved as a replay's judge resolves it), and, for an assertion with a check,
// what that check says on this trace now. The check itself runs on each replay; this only shows it at work.
import { findAssertionRowsById } from "../assertions/assertions.queries.ts";
import { ZCheck, ZTarget } from "../assertions/assertions.schemas.ts";
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import { evaluateRule } from "../grading/checks.ts";
import { findGradingSpans } from "../grading/grading.queries.ts";
import { findRootSpan, resolveTarget } from "../grading/targets.ts";
import type { TGradingSpan, TVerdict } from "../grading/grading.schemas.ts";

/** Payloads over this many characters of JSON are cut: the card is a glance; the trace page has the whole. */
export const CONTEXT_MAX_CHARS = 4000;

function clip(value: unknown, contentOff: boolean): unknown {
  if (contentOff) return "(not captured: content capture is off for this span in the sim plan)";
  if (value === undefined) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text.length <= CONTEXT_MAX_CHARS) return value;
  return `${text.slice(0, CONTEXT_MAX_CHARS)}… (cut at ${CONTEXT_MAX_CHARS} characters; the trace page shows all of it)`;
}

const spanView = (s: TGradingSpan) => ({ id: s.id, name: s.name, input: clip(s.input, s.contentOff), output: clip(s.output, s.contentOff), error: s.error });

export async function getAssertionContext(db: Database, organizationId: string, assertionId: string) {
  const [row] = await findAssertionRowsById(db, organizationId, [assertionId]);
  if (!row || row.archivedAt) throw notFound(`Assertion ${assertionId}`);
  const spans = await findGradingSpans(db, organizationId, row.traceId);
  const root = findRootSpan(spans);
  const target = ZTarget.nullable().safeParse(row.targetOnEvaluatedTrace ?? null);
  const resolved = target.success ? resolveTarget(spans, target.data ?? undefined) : { ok: false as const, missing: "the stored target is not valid" };
  const check = row.check === null ? null : ZCheck.safeParse(row.check);
  let onThisTrace: TVerdict | null = null;
  if (check && target.success) {
    onThisTrace = check.success
      ? evaluateRule(spans, { target: target.data ?? undefined, check: check.data })
      : { label: null, reason: null, failureDiagnostic: `The stored check is not valid: ${check.error.issues[0]?.message}.`, confidence: null };
  }
  return {
    traceId: row.traceId,
    root: root ? spanView(root) : null,
    target: resolved.ok
      ? { description: resolved.target.description, span: resolved.target.span ? spanView(resolved.target.span) : null, missing: null }
      : { description: null, span: null, missing: resolved.missing },
    onThisTrace,
  };
}
