// Who may delete. Every delete and restore of this feature (REST, MCP, console) asks this one function, so the
// roles that decide it live in one place (docs/operations.md, "Deleting data"). For now every API key and every
// signed-in member may delete.
import type { TAuthContext } from "../auth/auth.schemas.ts";

export type TDeleter = Pick<TAuthContext, "organizationId" | "userId"> & Partial<Pick<TAuthContext, "apiKeyId">>;

/** Throws a 403 (AppError "forbidden") when the caller may not delete; today it allows every caller. */
export function assertMayDelete(auth: TDeleter): void {
  void auth;
}
