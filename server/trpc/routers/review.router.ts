// review.*: the console's review queue of pending assertions (approve, reject, edit; one or many), over the
// assertion services the REST API and the MCP tools call.
import { z } from "zod";
import { ZApprovalState, ZSaveAssertion } from "../../assertions/assertions.schemas.ts";
import { getTraceAssertions, reviewAssertions, saveAssertions } from "../../assertions/assertions.service.ts";
import { findAssertionCategories } from "../../assertions/categories/categories.service.ts";
import { findReviewQueue } from "../../review/review-queue.service.ts";
import { findOrganizationMembers } from "../../auth/account.service.ts";
import { notFound } from "../../errors.ts";
import { getAssertionContext } from "../../review/assertion-context.service.ts";
import { ZUuid, zText } from "../../shared/schemas.ts";
import { allowed, protectedProcedure, router } from "../init.ts";

export const reviewRouter = router({
  queue: protectedProcedure
    .input(z.object({ traceFunctionKey: zText(1000).optional(), categoryId: ZUuid.optional(), assignee: zText(320).optional(), limit: z.number().int().min(1).max(200).default(100) }))
    .query(({ ctx, input }) => findReviewQueue(ctx.db, ctx.auth.organizationId, input)),

  /** Categories and members, for the queue's filters and the assignee field. */
  filters: protectedProcedure.query(async ({ ctx }) => ({
    categories: (await findAssertionCategories(ctx.db, ctx.auth.organizationId)).categories,
    members: (await findOrganizationMembers(ctx.db, ctx.auth.organizationId)).map((m) => ({ email: m.email, name: m.name })),
  })),

  decide: allowed("curate")
    .input(z.object({ ids: z.array(ZUuid).min(1).max(200), approvalState: ZApprovalState, humanNote: zText(10_000).nullable().optional() }))
    .mutation(({ ctx, input }) => reviewAssertions(ctx.db, ctx.auth, ctx.actor, input)),

  /** Beside a card: the trace's input and output, the span the target picks, the check's verdict on it now. */
  context: protectedProcedure
    .input(z.object({ assertionId: ZUuid }))
    .query(({ ctx, input }) => getAssertionContext(ctx.db, ctx.auth.organizationId, input.assertionId)),

  /** Edits a pending assertion in the queue; it stays pending until approved or rejected. */
  edit: allowed("curate")
    .input(z.object({ traceId: ZUuid, assertion: ZSaveAssertion.extend({ id: ZUuid }) }))
    .mutation(async ({ ctx, input }) => {
      const { assertions } = await getTraceAssertions(ctx.db, ctx.auth.organizationId, input.traceId, { includeUnapproved: true });
      if (!assertions.some((a) => a.id === input.assertion.id && a.traceId === input.traceId)) throw notFound(`Assertion ${input.assertion.id}`);
      const entry = { ...input.assertion, approvalState: input.assertion.approvalState ?? "pending" };
      const saved = await saveAssertions(ctx.db, ctx.auth, ctx.actor, { updates: [{ traceId: input.traceId, assertions: [entry] }], source: "human" }, "person");
      return saved.assertions[0]!;
    }),
});
