// people.* (invitations, removal, roles, reset links, one's own password) and invitation.* / passwordReset.* (the
// public pages a link opens): thin wiring over server/auth/people/.
import { allowed, protectedProcedure, publicProcedure, router } from "../init.ts";
import {
  ZAcceptInvitationInput,
  ZChangePasswordInput,
  ZChangeRoleInput,
  ZCreateInvitationInput,
  ZIdInput,
  ZResetPasswordInput,
  ZTokenInput,
  ZUserIdInput,
} from "../../auth/people/people.schemas.ts";
import { acceptInvitation, createInvitation, findInvitations, getInvitationByToken, revokeInvitation } from "../../auth/people/invitations.service.ts";
import { findPeople, removeUser, restoreUser } from "../../auth/people/members.service.ts";
import { setRole } from "../../auth/roles/roles.service.ts";
import { changeOwnPassword, createPasswordReset, getPasswordResetByToken, resetPassword } from "../../auth/people/passwords.service.ts";
import { getActorRole } from "../../auth/people/actor.ts";
import { canManageUsers } from "../../auth/people/roles.ts";

export const peopleRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const role = await getActorRole(ctx.db, ctx.auth);
    return { people: await findPeople(ctx.db, ctx.auth.organizationId), me: { userId: ctx.auth.userId, role, canManage: canManageUsers(role) } };
  }),
  invitations: protectedProcedure.query(({ ctx }) => findInvitations(ctx.db, ctx.auth)),
  invite: allowed("manage-users").input(ZCreateInvitationInput).mutation(({ ctx, input }) => createInvitation(ctx.db, ctx.auth, input)),
  revokeInvitation: allowed("manage-users").input(ZIdInput).mutation(({ ctx, input }) => revokeInvitation(ctx.db, ctx.auth, input.id)),
  remove: allowed("manage-users").input(ZUserIdInput).mutation(({ ctx, input }) => removeUser(ctx.db, ctx.auth, input.userId)),
  restore: allowed("manage-users").input(ZUserIdInput).mutation(({ ctx, input }) => restoreUser(ctx.db, ctx.auth, input.userId)),
  changeRole: allowed("manage-users").input(ZChangeRoleInput).mutation(({ ctx, input }) => setRole(ctx.db, ctx.auth, ctx.actor, input.userId, input.role)),
  createPasswordReset: allowed("manage-users").input(ZUserIdInput).mutation(({ ctx, input }) => createPasswordReset(ctx.db, ctx.auth, input.userId)),
  changePassword: allowed("own-account")
    .input(ZChangePasswordInput)
    .mutation(({ ctx, input }) => changeOwnPassword(ctx.db, ctx.auth, input, ctx.session.sessionId)),
});

export const invitationRouter = router({
  get: publicProcedure.input(ZTokenInput).query(({ ctx, input }) => getInvitationByToken(ctx.db, input.token)),
  accept: publicProcedure.input(ZAcceptInvitationInput).mutation(({ ctx, input }) => acceptInvitation(ctx.db, input)),
});

export const passwordResetRouter = router({
  get: publicProcedure.input(ZTokenInput).query(({ ctx, input }) => getPasswordResetByToken(ctx.db, input.token)),
  use: publicProcedure.input(ZResetPasswordInput).mutation(({ ctx, input }) => resetPassword(ctx.db, input)),
});
