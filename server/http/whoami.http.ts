// GET /api/sdk/whoami: which organization and user an API key acts as (handy for checking a key).
import { defineRoute } from "./define-route.ts";

export const getWhoami = defineRoute({
  permission: "account",
  handler: async ({ auth }) => ({ organizationId: auth.organizationId, userId: auth.userId }),
});
