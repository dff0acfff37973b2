// setup.*: the first run in the browser (docs/operations.md, "First run"). Public: there is no account yet.
import { z } from "zod";
import { publicProcedure, router } from "../init.ts";
import { ZCompleteSetupInput } from "../../auth/auth.schemas.ts";
import { serializeSessionCookie } from "../../auth/sessions/cookies.ts";
import { signIn } from "../../auth/sessions/sessions.service.ts";
import { getSignInLimiter } from "../../auth/sessions/sign-in-limiter.ts";
import { completeSetup, isSetupNeeded, isValidSetupCode } from "../../auth/setup.service.ts";

export const setupRouter = router({
  /** Whether the console must lead to /setup, and whether `code` is the current setup code. */
  status: publicProcedure.input(z.object({ code: z.string().max(200).optional() }).optional()).query(async ({ ctx, input }) => {
    const needed = await isSetupNeeded(ctx.db);
    return { needed, codeValid: needed && isValidSetupCode(input?.code) };
  }),

  /** Creates the first organization and its owner, signs the owner in, and returns the first API key (shown once). */
  complete: publicProcedure.input(ZCompleteSetupInput).mutation(async ({ ctx, input }) => {
    const created = await completeSetup(ctx.db, input);
    const session = await signIn(ctx.db, getSignInLimiter(), { email: input.email, password: input.password }, ctx.request.ip);
    ctx.resHeaders.append("set-cookie", serializeSessionCookie(session.token, session.expiresAt, ctx.request.secure));
    return { organizationId: created.organizationId, apiKey: created.apiKey };
  }),
});
