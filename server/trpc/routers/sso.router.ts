// sso.get / sso.set: the organization's single sign-on settings, thin over server/auth/sso/ (the secret never comes back).
import { protectedProcedure, router } from "../init.ts";
import { getSsoConfig, setSsoConfig } from "../../auth/sso/sso-config.service.ts";
import { ZSsoConfigInput } from "../../auth/sso/sso.schemas.ts";

export const ssoRouter = router({
  get: protectedProcedure.query(({ ctx }) => getSsoConfig(ctx.db, ctx.auth.organizationId)),
  set: protectedProcedure.input(ZSsoConfigInput).mutation(({ ctx, input }) => setSsoConfig(ctx.db, ctx.auth, input)),
});
