// The roles a user holds in their organization (docs/operations.md, "People and invitations"). Who may manage people
// is decided here alone, so the roles module can take this decision over in one place.
import { z } from "zod";

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type TRole = (typeof ROLES)[number];

export const ZRole = z.enum(ROLES, { message: "must be one of owner, admin, member, viewer" });

/** Admins and owners invite, remove and reset the passwords of other people. */
export function canManageUsers(role: string): boolean {
  return role === "owner" || role === "admin";
}

/** Only owners invite, remove, promote or demote owners. */
export function canManageOwners(role: string): boolean {
  return role === "owner";
}
