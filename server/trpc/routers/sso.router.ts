// sso.get / sso.set / sso.versions / sso.restore: the organization's single sign-on settings, thin over server/auth/sso/ (the secret never comes back).
import { allowed, protectedProcedure, router } from "../init.ts";
import { z } from "zod";
import { findSsoVersions, getSsoConfig, restoreSsoVersion, setSsoConfig } from "../../auth/sso/sso-config.service.ts";
import { ZSsoConfigInput } from "../../auth/sso/sso.schemas.ts";

export const ssoRouter = router({
  get: protectedProcedure.query(({ ctx }) => getSsoConfig(ctx.db, ctx.auth.organizationId)),
  set: allowed("manage-users").input(ZSsoConfigInput).mutation(({ ctx, input }) => setSsoConfig(ctx.db, ctx.auth, input)),
  versions: protectedProcedure.query(({ ctx }) => findSsoVersions(ctx.db, ctx.auth)),
  restore: allowed("manage-users").input(z.object({ version: z.number().int().min(1) })).mutation(({ ctx, input }) => restoreSsoVersion(ctx.db, ctx.auth, input.version)),
});
