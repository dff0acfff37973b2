// redaction.*: the console's settings card over redaction.service.ts (docs/operations.md, "Redaction").
import { z } from "zod";
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZRestoreRedactionBody, ZSaveRedactionBody } from "../../redaction/redaction.schemas.ts";
import { getRedactionSettings, restoreRedactionRules, saveRedactionRules } from "../../redaction/redaction.service.ts";
import { previewRedaction } from "../../redaction/preview.ts";

export const redactionRouter = router({
  get: protectedProcedure.query(({ ctx }) => getRedactionSettings(ctx.db, ctx.auth.organizationId)),
  save: allowed("manage-redaction").input(ZSaveRedactionBody).mutation(({ ctx, input }) => saveRedactionRules(ctx.db, ctx.auth, ctx.actor, input.rules)),
  restore: allowed("manage-redaction").input(ZRestoreRedactionBody).mutation(({ ctx, input }) => restoreRedactionRules(ctx.db, ctx.auth, ctx.actor, input.version)),
  /** What the given rules would make of a sample text, before they are saved. */
  preview: allowed("manage-redaction")
    .input(ZSaveRedactionBody.extend({ sample: z.string().max(10_000) }))
    .mutation(({ input }) => previewRedaction(input.rules, input.sample)),
});
