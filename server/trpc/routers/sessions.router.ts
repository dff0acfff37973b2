// session.me / session.signIn / session.signOut: the only procedures usable without a session.
import { publicProcedure, router } from "../init.ts";
import { permissionsOf } from "../../auth/permissions.ts";
import { clearSessionCookie, serializeSessionCookie } from "../../auth/sessions/cookies.ts";
import { ZSignInInput } from "../../auth/sessions/sessions.schemas.ts";
import { signIn, signOut } from "../../auth/sessions/sessions.service.ts";
import { getSignInLimiter } from "../../auth/sessions/sign-in-limiter.ts";

export const sessionRouter = router({
  /**
   * The signed-in user, or null (the sign-in page and the console layout ask this), with their role and what it
   * lets them do: the console hides what the role cannot do (server/auth/permissions.ts).
   */
  me: publicProcedure.query(({ ctx }) => {
    if (!ctx.session) return null;
    const { userId, email, name, organizationId, organizationName, role } = ctx.session;
    return { userId, email, name, organizationId, organizationName, role, can: permissionsOf({ role, scope: null }) };
  }),

  signIn: publicProcedure.input(ZSignInInput).mutation(async ({ ctx, input }) => {
    const result = await signIn(ctx.db, getSignInLimiter(), input, ctx.request.ip);
    ctx.resHeaders.append("set-cookie", serializeSessionCookie(result.token, result.expiresAt, ctx.request.secure));
    return { userId: result.userId, expiresAt: result.expiresAt };
  }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    await signOut(ctx.db, ctx.sessionToken);
    ctx.resHeaders.append("set-cookie", clearSessionCookie(ctx.request.secure));
    return { signedOut: true };
  }),
});
