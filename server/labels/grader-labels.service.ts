// GET /api/sdk/graderLabels (docs/api/labels.md): by traces (every grader's verdict, in the
// given trace order), by grader (its most recent verdicts, newest first, `limit` default 50), or both.
import type { Database } from "../db/client.ts";
import { badRequest, notFound } from "../errors.ts";
import { canonicalId, isUuid } from "../ids.ts";
import * as q from "./grader-labels.queries.ts";
import type { TGraderLabel, TGraderLabelsQuery } from "./labels.schemas.ts";

const DEFAULT_LIMIT = 50;

export async function findGraderLabels(db: Database, organizationId: string, query: TGraderLabelsQuery): Promise<{ labels: TGraderLabel[] }> {
  if (!query.traceIds && query.graderId === undefined) {
    throw badRequest("Give traceIds, graderId, or both.");
  }
  let graderId: string | undefined;
  if (query.graderId !== undefined) {
    // A grader of another organization is a 404 like a missing one.
    graderId = query.graderId.toLowerCase();
    if (!isUuid(graderId) || (await q.findGraders(db, organizationId, [graderId])).length === 0) throw notFound("Grader");
  }
  const traceIds = query.traceIds?.map((id) => canonicalId(organizationId, id));
  const rows = await q.findGraderLabelRows(db, {
    organizationId,
    traceIds,
    graderId,
    // The limit applies to grader-only reads; by traces the set is bounded by the ids.
    limit: traceIds ? undefined : (query.limit ?? DEFAULT_LIMIT),
  });
  const graders = new Map((await q.findGraders(db, organizationId, [...new Set(rows.map((r) => r.graderId))])).map((g) => [g.id, g]));
  const ordered = traceIds ? [...rows].sort((a, b) => traceIds.indexOf(a.traceId) - traceIds.indexOf(b.traceId)) : rows;
  return {
    labels: ordered.flatMap((r) => {
      const g = graders.get(r.graderId);
      if (!g) return []; // the grader row is gone or not the organization's: nothing to attribute
      return [{
        traceId: r.traceId,
        graderId: r.graderId,
        graderName: g.name,
        graderStatus: g.status,
        graderVersion: r.graderVersion,
        label: r.label,
        labelReason: r.labelReason,
        failureDiagnostic: r.failureDiagnostic,
        labelConfidence: r.labelConfidence,
        source: r.source as TGraderLabel["source"],
        evaluatedAt: r.evaluatedAt?.toISOString() ?? null,
        score: r.score,
        category: r.category,
      }];
    }),
  };
}
