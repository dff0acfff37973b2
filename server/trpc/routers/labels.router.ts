// labels.*: verdicts recorded in the console. A human verdict is the same write as
// POST /api/sdk/traces/labels/human; clearing is the `{archive: true}` write of POST /api/sdk/traces/labels;
// approving or rejecting an agent verdict is console-only (server/verdicts).
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZUuid } from "../../shared/schemas.ts";
import { getTrace } from "../../traces/traces.service.ts";
import { findVerdictRecords, reviewAgentVerdict, undoHumanVerdict } from "../../labels/verdicts.service.ts";
import { saveAgentLabels, saveHumanLabels } from "../../labels/trace-labels.service.ts";
import { findVerdictHistory } from "../../labels/verdict-history.service.ts";
import { saveGraderLabels, undoGraderLabel } from "../../labels/grader-label-writes.service.ts";
import { findTraceGraderLabelHistory } from "../../labels/grader-label-history.service.ts";
import { ZGraderLabelWrite } from "../../labels/labels.schemas.ts";

const ZTarget = z.object({ traceId: ZUuid, assertionId: ZUuid.nullable().default(null) });

export const labelsRouter = router({
  saveHuman: allowed("label")
    .input(ZTarget.extend({ label: z.boolean(), annotation: z.string().max(20_000).nullable().optional() }))
    .mutation(async ({ ctx, input }) => {
      // The console addresses one trace it showed: another organization's is NOT_FOUND, as everywhere in
      // the console (the REST batch reports it as a 400 for the whole batch instead).
      await getTrace(ctx.db, ctx.auth.organizationId, input.traceId);
      const saved = await saveHumanLabels(ctx.db, ctx.auth, ctx.actor, [{ traceId: input.traceId, assertionId: input.assertionId, label: input.label, annotation: input.annotation || null }]);
      // The id of the verdict just written, so the labelling queue can undo exactly this one.
      const record = (await findVerdictRecords(ctx.db, ctx.auth.organizationId, [input.traceId])).find((r) => r.assertionId === input.assertionId);
      return { ...saved, id: record?.id ?? null };
    }),

  /** Undo of the labelling queue: the verdict it just recorded, which must still be current (else CONFLICT). */
  undo: allowed("label")
    .input(z.object({ id: ZUuid }))
    .mutation(({ ctx, input }) => undoHumanVerdict(ctx.db, ctx.auth, ctx.actor, input.id)),

  clear: allowed("label")
    .input(ZTarget)
    .mutation(({ ctx, input }) =>
      saveAgentLabels(ctx.db, ctx.auth, ctx.actor, { labels: [{ traceId: input.traceId, assertionId: input.assertionId, archive: true }], testRunId: undefined }),
    ),

  /** Every verdict of the trace and its assertions, newest first, replaced and withdrawn ones included. */
  history: protectedProcedure
    .input(z.object({ traceId: ZUuid }))
    .query(({ ctx, input }) => findVerdictHistory(ctx.db, ctx.auth.organizationId, input.traceId)),

  /** A person's pass/fail, score or category on a grader (docs/graders.md, "Scores and categories"). */
  saveGraderLabel: allowed("label")
    .input(ZGraderLabelWrite)
    .mutation(async ({ ctx, input }) => {
      const { labels } = await saveGraderLabels(ctx.db, { organizationId: ctx.auth.organizationId, userId: ctx.auth.userId, via: "console" }, [input]);
      return labels[0]!;
    }),

  /** Undo of a person's grader label: the label it replaced is current again. */
  undoGraderLabel: allowed("label")
    .input(z.object({ traceId: ZUuid, graderId: ZUuid }))
    .mutation(({ ctx, input }) => undoGraderLabel(ctx.db, { organizationId: ctx.auth.organizationId, userId: ctx.auth.userId, via: "console" }, input)),

  /** The trace's grader labels: current ones, then those later writes replaced, newest first. */
  graderHistory: protectedProcedure
    .input(z.object({ traceId: ZUuid }))
    .query(({ ctx, input }) => findTraceGraderLabelHistory(ctx.db, ctx.auth.organizationId, input.traceId)),

  review: allowed("label")
    .input(ZTarget.extend({ approve: z.boolean() }))
    .mutation(({ ctx, input }) => reviewAgentVerdict(ctx.db, ctx.auth, ctx.actor, input)),
});
