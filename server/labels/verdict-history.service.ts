// A trace's verdict history for the console's trace page (docs/graders.md, "Verdict history"): every verdict
// recorded on the trace and on its assertions, newest first, with who decided (a person, an agent through a
// user's key, the replay judge), when, whether a person reviewed it, and whether it is current, was replaced
// by a later verdict, or was withdrawn (cleared or undone) with none in its place.
import type { Database } from "../db/client.ts";
import { notFound } from "../errors.ts";
import type { TVerdictHistoryEntry } from "./labels.schemas.ts";
import * as q from "./verdicts.queries.ts";

export async function findVerdictHistory(db: Database, organizationId: string, traceId: string): Promise<{ traceId: string; entries: TVerdictHistoryEntry[] }> {
  if (!(await q.traceExists(db, organizationId, traceId))) throw notFound(`Trace ${traceId}`);
  const { rows, users, assertions } = await q.findVerdictHistoryRows(db, organizationId, traceId);
  const target = (r: { assertionId: string | null }) => r.assertionId ?? "";
  const entries = rows.map((r): TVerdictHistoryEntry => {
    // A verdict is replaced when a verdict on the same target was written at the moment it was superseded.
    const replacedBy = r.supersededAt
      ? rows.find((o) => o.id !== r.id && target(o) === target(r) && o.createdAt.getTime() === r.supersededAt!.getTime())
      : undefined;
    return {
      id: r.id,
      assertionId: r.assertionId,
      assertion: r.assertionId ? (assertions.get(r.assertionId) ?? null) : null,
      labelStatus: r.labelStatus as TVerdictHistoryEntry["labelStatus"],
      label: r.label,
      annotation: r.annotation,
      confidence: r.confidence,
      labelSource: r.labelSource as TVerdictHistoryEntry["labelSource"],
      decidedBy: r.authorUserId ? (users.get(r.authorUserId) ?? null) : null,
      decidedAt: r.createdAt.toISOString(),
      testRunId: r.testRunId,
      review: r.labelSource === "agent" && r.approvalState !== "pending"
        ? { state: r.approvalState as "approved" | "rejected", by: r.approvedByUserId ? (users.get(r.approvedByUserId) ?? null) : null, at: r.approvedAt?.toISOString() ?? null }
        : null,
      state: !r.supersededAt ? "current" : replacedBy ? "replaced" : "withdrawn",
      endedAt: r.supersededAt?.toISOString() ?? null,
      replacedById: replacedBy?.id ?? null,
    };
  });
  return { traceId, entries };
}
