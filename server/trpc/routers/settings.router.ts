// apiKeys.*, users.* and the caller's role: thin wiring over settings.service.ts and roles.service.ts.
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZCreateApiKeyInput, ZCreateUserInput, ZRevokeApiKeyInput, ZSetRoleInput } from "../../auth/settings/settings.schemas.ts";
import * as settings from "../../auth/settings/settings.service.ts";
import { setRole } from "../../auth/roles/roles.service.ts";

export const apiKeysRouter = router({
  list: protectedProcedure.query(({ ctx }) => settings.findApiKeys(ctx.db, ctx.auth.organizationId)),
  create: allowed("manage-keys").input(ZCreateApiKeyInput).mutation(({ ctx, input }) => settings.createApiKey(ctx.db, ctx.auth, input)),
  revoke: allowed("manage-keys").input(ZRevokeApiKeyInput).mutation(({ ctx, input }) => settings.revokeApiKey(ctx.db, ctx.auth, input.id)),
});

export const usersRouter = router({
  list: protectedProcedure.query(({ ctx }) => settings.findUsers(ctx.db, ctx.auth.organizationId)),
  create: allowed("manage-users").input(ZCreateUserInput).mutation(({ ctx, input }) => settings.createUser(ctx.db, ctx.auth, input)),
  /** Admins set admin, member and viewer; only an owner makes or unmakes an owner; the last owner stays. */
  setRole: allowed("manage-users").input(ZSetRoleInput).mutation(({ ctx, input }) => setRole(ctx.db, ctx.auth, input.userId, input.role)),
});
