// assertions.*: the console's assertion pages, wiring over assertions.service.ts (the
// same functions as GET/POST /api/sdk/traces/…/assertions). Console writes are human-authored.
import { z } from "zod";
import { notFound } from "../../errors.ts";
import { findSpanNames } from "../../trace-view/trace-view.service.ts";
import { ZUuid, zText } from "../../shared/schemas.ts";
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZApprovalState, ZSaveAssertion } from "../../assertions/assertions.schemas.ts";
import { findAssertionHistory, revertAssertion } from "../../assertions/versions/versions.service.ts";
import { archiveAssertions, getTraceAssertions, saveAssertions } from "../../assertions/assertions.service.ts";
import { findRecentAssertions } from "../../assertions/recent/recent-assertions.service.ts";
import type { Database } from "../../db/client.ts";

const ZSaveInput = z
  .object({ traceId: ZUuid, assertion: ZSaveAssertion })
  .refine((i) => i.assertion.id !== undefined || i.assertion.assertion !== undefined, {
    path: ["assertion", "assertion"],
    message: "is required for a new assertion",
  });

/**
 * Throws NOT_FOUND unless every id is an active assertion of the trace itself (not an inherited one):
 * another organization's assertion ids read as missing, as everywhere in the console (the REST write
 * answers 400 for an id of another trace).
 */
async function requireOwnAssertions(db: Database, organizationId: string, traceId: string, ids: string[]) {
  const { assertions } = await getTraceAssertions(db, organizationId, traceId, { includeUnapproved: true });
  const own = new Set(assertions.filter((a) => a.traceId === traceId).map((a) => a.id));
  const missing = ids.find((id) => !own.has(id));
  if (missing) throw notFound(`Assertion ${missing}`);
}

export const assertionsRouter = router({
  /** The assertions that apply to a trace (its own, else its original's) and the span names targets can pick. */
  forTrace: protectedProcedure.input(z.object({ traceId: ZUuid })).query(async ({ ctx, input }) => {
    const org = ctx.auth.organizationId;
    const found = await getTraceAssertions(ctx.db, org, input.traceId, { includeUnapproved: true });
    return { ...found, spanNames: await findSpanNames(ctx.db, org, input.traceId) };
  }),

  /**
   * Recent active assertions across traces in one review state (approved unless asked: only those are
   * judged), optionally of one trace function, newest first, with the count in each state.
   */
  recent: protectedProcedure
    .input(z.object({
      traceFunctionKey: zText(1000).optional(),
      approvalState: z.union([ZApprovalState, z.literal("all")]).default("approved"),
      cursor: z.string().max(512).optional(),
      limit: z.number().int().min(1).max(200).default(100),
    }))
    .query(({ ctx, input }) => findRecentAssertions(ctx.db, ctx.auth.organizationId, input)),

  /** The assertion now and every earlier version, newest first, each with who wrote and replaced it. */
  history: protectedProcedure
    .input(z.object({ assertionId: ZUuid }))
    .query(({ ctx, input }) => findAssertionHistory(ctx.db, ctx.auth.organizationId, input.assertionId)),

  /** Restores an earlier version (what it said until now becomes a version in turn, so this is undoable). */
  revert: allowed("curate")
    .input(z.object({ assertionId: ZUuid, version: z.number().int().min(1) }))
    .mutation(({ ctx, input }) => revertAssertion(ctx.db, ctx.auth, ctx.actor, input)),

  /** Adds (no id) or edits (id) one assertion of a trace; the user is the author of a new one. */
  save: allowed("curate").input(ZSaveInput).mutation(async ({ ctx, input }) => {
    if (input.assertion.id) await requireOwnAssertions(ctx.db, ctx.auth.organizationId, input.traceId, [input.assertion.id]);
    const { assertions } = await saveAssertions(ctx.db, ctx.auth, ctx.actor, { updates: [{ traceId: input.traceId, assertions: [input.assertion] }], source: "human" }, "person");
    return assertions[0]!;
  }),

  archive: allowed("curate")
    .input(z.object({ traceId: ZUuid, assertionIds: z.array(ZUuid).min(1).max(100) }))
    .mutation(async ({ ctx, input }) => {
      await requireOwnAssertions(ctx.db, ctx.auth.organizationId, input.traceId, input.assertionIds);
      return archiveAssertions(ctx.db, ctx.auth.organizationId, ctx.actor, input.traceId, input.assertionIds);
    }),
});
