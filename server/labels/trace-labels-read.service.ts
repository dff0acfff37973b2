// GET /api/sdk/traces/labels (docs/api/labels.md, "GET /api/sdk/traces/labels"): each trace's current
// whole-trace verdict plus one entry per assertion that applies to it (its own, else its original's) or
// that it has a verdict for. Archived assertions and superseded verdicts are hidden.
import { findEffectiveAssertions } from "../assertions/assertions.service.ts";
import type { DbClient } from "../db/client.ts";
import { canonicalId } from "../ids.ts";
import type { TTraceLabels } from "./labels.schemas.ts";
import * as q from "./trace-labels.queries.ts";
import type { CurrentLabelRow } from "./trace-labels.queries.ts";

type AssertionRef = { id: string; assertion: string };

/** Entries in the given order for the organization's traces; the other ids come back in unresolvedTraceIds. */
export async function findTraceLabels(db: DbClient, organizationId: string, traceIds: string[]) {
  const ids = traceIds.map((given) => ({ given, id: canonicalId(organizationId, given) }));
  const known = await q.findExistingTraceIds(db, organizationId, ids.map((t) => t.id));
  const found = [...new Set(ids.filter((t) => known.has(t.id)).map((t) => t.id))];
  return { labels: await findKnownTraceLabels(db, organizationId, found), unresolvedTraceIds: ids.filter((t) => !known.has(t.id)).map((t) => t.given) };
}

/** The entries of traces known to be the organization's (canonical ids, e.g. just written), in the given order. */
export async function findKnownTraceLabels(db: DbClient, organizationId: string, found: string[]): Promise<TTraceLabels[]> {
  const current = await q.findCurrentLabels(db, organizationId, found);
  const labeledAssertionIds = [...new Set(current.flatMap((l) => (l.assertionId ? [l.assertionId] : [])))];
  const activeLabeled = await q.findActiveAssertions(db, organizationId, labeledAssertionIds);
  const labels: TTraceLabels[] = [];
  for (const traceId of found) {
    const own = current.filter((l) => l.traceId === traceId);
    const effective = (await findEffectiveAssertions(db, organizationId, traceId))?.assertions ?? [];
    const extra = activeLabeled.filter((a) => own.some((l) => l.assertionId === a.id) && !effective.some((e) => e.id === a.id));
    labels.push(toTraceLabels(traceId, own, [...effective, ...extra]));
  }
  return labels;
}

function toTraceLabels(traceId: string, current: CurrentLabelRow[], assertions: AssertionRef[]): TTraceLabels {
  const whole = current.find((l) => l.assertionId === null);
  const entries = assertions.map((a) => {
    const l = current.find((c) => c.assertionId === a.id);
    return { assertionId: a.id, assertion: a.assertion, ...verdictFields(l) };
  });
  const scored = entries.filter((e) => e.labelStatus === "labeled");
  return {
    traceId,
    ...verdictFields(whole),
    passed: scored.filter((e) => e.label === true).length,
    failed: scored.filter((e) => e.label === false).length,
    assertions: entries,
  };
}

function verdictFields(l: CurrentLabelRow | undefined) {
  return {
    labelStatus: (l?.labelStatus ?? "unlabeled") as TTraceLabels["labelStatus"],
    label: l?.label ?? null,
    annotation: l?.annotation ?? null,
    confidence: l?.confidence ?? null,
    labelSource: (l?.labelSource ?? null) as TTraceLabels["labelSource"],
    // Human verdicts are validated on write (docs/api/labels.md: they read back approved: true).
    approved: l?.approved ?? false,
    evidence: (l?.evidence ?? null) as TTraceLabels["evidence"],
  };
}
