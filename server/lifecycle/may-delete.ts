// Who may delete. Every delete and restore of this feature (REST, MCP, console) asks this one function, which asks
// the one rule table (server/auth/permissions.ts, permission "delete-data": the admin role, and an API key of scope
// admin; docs/operations.md, "Deleting data"). The surfaces check the same permission before they call the service;
// this check keeps a service called from elsewhere from deleting for a caller who may not.
import type { TAuthContext } from "../auth/auth.schemas.ts";
import { assertAllowed } from "../auth/permissions.ts";

export type TDeleter = Pick<TAuthContext, "organizationId" | "userId"> & Partial<Pick<TAuthContext, "apiKeyId" | "role" | "scope">>;

/** Throws a 403 (AppError "forbidden") when the caller may not delete. A caller without a role (the admin CLI) may. */
export function assertMayDelete(auth: TDeleter): void {
  if (auth.role) assertAllowed({ role: auth.role, scope: auth.scope ?? null }, "delete-data");
}
