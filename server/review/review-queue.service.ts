// The console's review queue (docs/api/assertions.md, "Review"): pending assertions, oldest first, each with
// its trace, filtered by trace function, category and assignee (an email, or "unassigned").
import type { Database } from "../db/client.ts";
import { AppError } from "../errors.ts";
import * as aq from "../assertions/assertions.queries.ts";
import { toAssertionResponses } from "../assertions/assertions.service.ts";
import { selectAssertionTraces } from "../assertions/recent/recent-assertions.queries.ts";
import * as q from "./review-queue.queries.ts";

export interface TReviewQueueInput {
  traceFunctionKey?: string;
  categoryId?: string;
  /** A member's email, or "unassigned". */
  assignee?: string;
  limit: number;
}

export async function findReviewQueue(db: Database, organizationId: string, input: TReviewQueueInput) {
  let assigneeUserId: string | null | undefined;
  if (input.assignee === "unassigned") assigneeUserId = null;
  else if (input.assignee) {
    const user = await aq.findUserByEmail(db, organizationId, input.assignee);
    if (!user) throw new AppError("bad_request", `${input.assignee} is not a member of this organization.`);
    assigneeUserId = user.id;
  }
  const ids = (await q.selectPendingAssertionIds(db, organizationId, { traceFunctionKey: input.traceFunctionKey, categoryId: input.categoryId, assigneeUserId }, input.limit)).map((r) => r.id);
  const rows = await aq.findAssertionRowsById(db, organizationId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const traces = new Map((await selectAssertionTraces(db, organizationId, [...new Set(ordered.map((r) => r.traceId))])).map((t) => [t.id, t]));
  const assertions = (await toAssertionResponses(db, organizationId, ordered)).map((a) => {
    const t = traces.get(a.traceId);
    return { ...a, trace: { id: a.traceId, name: t?.name ?? null, traceFunctionKey: t?.traceFunctionKey ?? null } };
  });
  const traceFunctionKeys = (await q.selectTraceFunctionKeysWithPending(db, organizationId)).map((r) => r.key);
  return { assertions, traceFunctionKeys };
}
