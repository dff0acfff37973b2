// apiKeys.* and users.*: thin wiring over settings.service.ts (a role changes through people.changeRole).
import { allowed, protectedProcedure, router } from "../init.ts";
import { ZCreateApiKeyInput, ZCreateUserInput, ZRevokeApiKeyInput } from "../../auth/settings/settings.schemas.ts";
import * as settings from "../../auth/settings/settings.service.ts";

export const apiKeysRouter = router({
  list: protectedProcedure.query(({ ctx }) => settings.findApiKeys(ctx.db, ctx.auth.organizationId)),
  create: allowed("manage-keys").input(ZCreateApiKeyInput).mutation(({ ctx, input }) => settings.createApiKey(ctx.db, ctx.auth, input)),
  revoke: allowed("manage-keys").input(ZRevokeApiKeyInput).mutation(({ ctx, input }) => settings.revokeApiKey(ctx.db, ctx.auth, input.id)),
});

export const usersRouter = router({
  list: protectedProcedure.query(({ ctx }) => settings.findUsers(ctx.db, ctx.auth.organizationId)),
  create: allowed("manage-users").input(ZCreateUserInput).mutation(({ ctx, input }) => settings.createUser(ctx.db, ctx.auth, input)),
});
