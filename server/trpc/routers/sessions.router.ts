// session.me / session.signIn / session.signOut: the only procedures usable without a session; session.list /
// session.revoke / session.revokeAll: one's own sessions, or (admins) another person's.
import { z } from "zod";
import { allowed, protectedProcedure, publicProcedure, router } from "../init.ts";
import { permissionsOf } from "../../auth/permissions.ts";
import { findSessions, revokeAllSessions, revokeSession } from "../../auth/sessions/session-list.service.ts";
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
    const result = await signIn(ctx.db, getSignInLimiter(), input, ctx.request.ip, undefined, { userAgent: ctx.request.userAgent });
    ctx.resHeaders.append("set-cookie", serializeSessionCookie(result.token, result.expiresAt, ctx.request.secure));
    return { userId: result.userId, expiresAt: result.expiresAt };
  }),

  list: protectedProcedure
    .input(z.object({ userId: z.uuid().optional() }).optional())
    .query(({ ctx, input }) => findSessions(ctx.db, { ...ctx.auth, sessionId: ctx.session.sessionId }, input?.userId)),
  revoke: allowed("own-account")
    .input(z.object({ id: z.uuid(), userId: z.uuid().optional() }))
    .mutation(({ ctx, input }) => revokeSession(ctx.db, { ...ctx.auth, sessionId: ctx.session.sessionId }, input.id, input.userId)),
  revokeAll: allowed("own-account")
    .input(z.object({ userId: z.uuid().optional() }).optional())
    .mutation(({ ctx, input }) => revokeAllSessions(ctx.db, { ...ctx.auth, sessionId: ctx.session.sessionId }, input?.userId)),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    await signOut(ctx.db, ctx.sessionToken);
    ctx.resHeaders.append("set-cookie", clearSessionCookie(ctx.request.secure));
    return { signedOut: true };
  }),
});
