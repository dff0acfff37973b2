// Who may manage people (docs/operations.md, "People and invitations"), asked of the one rule table
// (server/auth/permissions.ts): the people flows check a user's role with these, so the rules live in one place.
import { denial, isRole, type TRole } from "../permissions.ts";
import { ZRole } from "../settings/settings.schemas.ts";

export { ZRole, type TRole };

/** Admins and owners invite, remove and reset the passwords of other people (permission manage-users). */
export function canManageUsers(role: string): boolean {
  return isRole(role) && denial({ role, scope: null }, "manage-users") === null;
}

/** Only owners invite, remove, promote or demote owners (permission manage-owners). */
export function canManageOwners(role: string): boolean {
  return isRole(role) && denial({ role, scope: null }, "manage-owners") === null;
}
