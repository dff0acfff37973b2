// Approving or rejecting an agent verdict: console-only (http-interface.md, labels/human: "Approving an
// existing agent verdict is not available programmatically"). Runs under the same per-trace verdict lock
// as every other verdict write, so it never approves a verdict that is being superseded.
import type { Database } from "../db/client.ts";
import { AppError, notFound } from "../errors.ts";
import { lockTraceLabels } from "./trace-labels.queries.ts";
import * as q from "./verdicts.queries.ts";

export interface TReviewVerdictInput {
  traceId: string;
  assertionId: string | null;
  approve: boolean;
}

export async function reviewAgentVerdict(db: Database, auth: { organizationId: string; userId: string }, input: TReviewVerdictInput) {
  const { organizationId } = auth;
  return db.transaction(async (tx) => {
    if (!(await q.traceExists(tx, organizationId, input.traceId))) throw notFound(`Trace ${input.traceId}`);
    await lockTraceLabels(tx, organizationId, input.traceId);
    const current = await q.findCurrentVerdict(tx, organizationId, input.traceId, input.assertionId);
    if (!current) throw notFound("Verdict");
    if (current.labelSource !== "agent") {
      throw new AppError("bad_request", `Only agent verdicts are approved or rejected; this one comes from ${current.labelSource}.`);
    }
    await q.setApproval(tx, organizationId, current.id, input.approve, auth.userId, new Date());
    return { traceId: input.traceId, assertionId: input.assertionId, approvalState: input.approve ? ("approved" as const) : ("rejected" as const) };
  });
}
