// lifecycle.*: the console's deletes, restores, pins and retention setting, wiring over the lifecycle services (the
// same functions as REST and MCP; docs/operations.md, "Deleting data" and "Retention").
import { z } from "zod";
import { ZSetRetentionBody } from "../../auth/settings/retention.schemas.ts";
import { getRetention, setRetention } from "../../auth/settings/retention.service.ts";
import { ZTombstoneKind } from "../../lifecycle/deletion/deletion.schemas.ts";
import { deleteTrace, deleteTraces } from "../../lifecycle/deletion/deletion.service.ts";
import { deleteAssertion, deleteDataset, deleteGrader, findTombstones, restoreDeleted } from "../../lifecycle/deletion/items.service.ts";
import { assertMayDelete } from "../../lifecycle/may-delete.ts";
import { getTracePin, setTracePin } from "../../lifecycle/retention/retention.service.ts";
import { ZUuid } from "../../shared/schemas.ts";
import { ZTraceQueueInput } from "../../trace-view/trace-view.schemas.ts";
import { allowed, protectedProcedure, router } from "../init.ts";

const ZRef = z.object({ id: ZUuid });

export const lifecycleRouter = router({
  deleteTrace: allowed("delete-data").input(ZRef).mutation(({ ctx, input }) => deleteTrace(ctx.db, ctx.auth, ctx.actor, input.id)),

  /** The trace list's filtered delete: first `dryRun` for the count, then `confirmCount` equal to it. */
  deleteTraces: allowed("delete-data")
    .input(z.object({ filter: ZTraceQueueInput, dryRun: z.boolean().optional(), confirmCount: z.number().int().min(0).optional() }))
    .mutation(({ ctx, input }) => {
      const { includeReplays, sessionId, ...filter } = input.filter;
      return deleteTraces(
        ctx.db,
        ctx.auth,
        ctx.actor,
        { filter, dryRun: input.dryRun, confirmCount: input.confirmCount },
        { searchContent: true, excludeReplays: !includeReplays, sessionId },
      );
    }),

  deleteDataset: allowed("delete-data").input(ZRef).mutation(({ ctx, input }) => deleteDataset(ctx.db, ctx.auth, ctx.actor, input.id)),
  deleteGrader: allowed("delete-data").input(ZRef).mutation(({ ctx, input }) => deleteGrader(ctx.db, ctx.auth, ctx.actor, input.id)),
  deleteAssertion: allowed("delete-data").input(ZRef).mutation(({ ctx, input }) => deleteAssertion(ctx.db, ctx.auth, ctx.actor, input.id)),
  deleted: protectedProcedure.input(z.object({ kind: ZTombstoneKind.optional() })).query(({ ctx, input }) => findTombstones(ctx.db, ctx.auth.organizationId, input.kind)),
  restore: allowed("delete-data").input(ZRef).mutation(({ ctx, input }) => restoreDeleted(ctx.db, ctx.auth, ctx.actor, input.id)),

  pin: protectedProcedure.input(z.object({ traceId: ZUuid })).query(({ ctx, input }) => getTracePin(ctx.db, ctx.auth.organizationId, input.traceId)),
  setPin: allowed("curate")
    .input(z.object({ traceId: ZUuid, pinned: z.boolean() }))
    .mutation(({ ctx, input }) => setTracePin(ctx.db, ctx.auth, ctx.actor, input.traceId, input.pinned)),

  retention: protectedProcedure.query(({ ctx }) => getRetention(ctx.db, ctx.auth.organizationId)),
  setRetention: allowed("manage-retention").input(ZSetRetentionBody).mutation(({ ctx, input }) => {
    // A retention period deletes data: the same permission as a delete.
    assertMayDelete(ctx.auth);
    return setRetention(ctx.db, ctx.auth.organizationId, ctx.actor, input.retentionDays);
  }),
});
