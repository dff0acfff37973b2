// Who may do what: the ONE table of roles, API key scopes and the permissions every surface declares
// (docs/operations.md, "Roles and API key scopes"). defineRoute, the MCP tool call and the tRPC procedures all
// pass through assertAllowed, so the console, REST and MCP follow the same rule.
import { AppError } from "../errors.ts";

/** A user's role in their organization, weakest first. */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export type TRole = (typeof ROLES)[number];

/** An API key's scope. Not an order: `ingest` writes traces but reads nothing but the sim plan. */
export const SCOPES = ["ingest", "read", "read-write", "admin"] as const;
export type TScope = (typeof SCOPES)[number];

interface PermissionRule {
  /** The weakest role that may. */
  role: TRole;
  /** The key scopes that may (a console session has no scope: its role alone decides). */
  scopes: readonly TScope[];
  /** What it lets one do, for the 403 message: "labelling traces needs …". */
  what: string;
}

const ANY_SCOPE = SCOPES;
const READING = ["read", "read-write", "admin"] as const;
const WRITING = ["read-write", "admin"] as const;
const ADMIN = ["admin"] as const;

export const PERMISSIONS = {
  /** Who the caller is (whoami, the MCP account tools, tools that only explain themselves). */
  account: { role: "viewer", scopes: ANY_SCOPE, what: "reading the key's own account" },
  /** Changing one's own password and ending one's own sessions: everyone may, with a key that writes. */
  "own-account": { role: "viewer", scopes: WRITING, what: "changing your own password and sessions" },
  read: { role: "viewer", scopes: READING, what: "reading traces, labels, datasets, graders and experiments" },
  "read-sim-plan": { role: "viewer", scopes: ANY_SCOPE, what: "reading the sim plan" },
  /** An app looks up its prompt functions at run time, with the key it embeds. */
  "read-functions": { role: "viewer", scopes: ANY_SCOPE, what: "looking up prompt functions" },
  ingest: { role: "member", scopes: ["ingest", "read-write", "admin"], what: "writing spans and traces" },
  label: { role: "member", scopes: WRITING, what: "labelling traces" },
  curate: { role: "member", scopes: WRITING, what: "curating datasets and assertions" },
  replay: { role: "member", scopes: WRITING, what: "starting replays and reruns" },
  "manage-graders": { role: "admin", scopes: ADMIN, what: "changing graders" },
  "manage-sim-plan": { role: "admin", scopes: ADMIN, what: "changing the sim plan" },
  "manage-retention": { role: "admin", scopes: ADMIN, what: "changing retention" },
  "manage-redaction": { role: "admin", scopes: ADMIN, what: "changing redaction rules" },
  "manage-prices": { role: "admin", scopes: ADMIN, what: "changing model prices and recomputing costs" },
  "manage-alerts": { role: "admin", scopes: ADMIN, what: "changing alert rules" },
  /** Deleting traces (by id, filter, session or user), datasets, graders and assertions, and restoring them. */
  "delete-data": { role: "admin", scopes: ADMIN, what: "deleting data" },
  "import-data": { role: "admin", scopes: ADMIN, what: "importing traces" },
  "manage-keys": { role: "admin", scopes: ADMIN, what: "managing API keys" },
  "manage-users": { role: "admin", scopes: ADMIN, what: "managing users and their roles" },
  /** The audit log shows every change and who made it: admins read it, with any key that reads. */
  "read-audit": { role: "admin", scopes: READING, what: "reading the audit log" },
  "manage-owners": { role: "owner", scopes: ADMIN, what: "managing owners" },
} as const satisfies Record<string, PermissionRule>;

export type TPermission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as TPermission[];

/** Who is asking: the user's role and, for an API key, its scope (null for a console session). */
export interface TActor {
  role: TRole;
  scope: TScope | null;
}

export const roleRank = (role: TRole): number => ROLES.indexOf(role);
export const isRole = (value: unknown): value is TRole => (ROLES as readonly unknown[]).includes(value);
export const isScope = (value: unknown): value is TScope => (SCOPES as readonly unknown[]).includes(value);

/** Why the actor may not, or null when they may. A key acts as its user: min(key scope, user's role). */
export function denial(actor: TActor, permission: TPermission): AppError | null {
  const rule: PermissionRule = PERMISSIONS[permission];
  if (roleRank(actor.role) < roleRank(rule.role)) {
    return new AppError("forbidden", `Forbidden: ${rule.what} needs the ${rule.role} role or higher; your role is ${actor.role}.`, {
      fields: { requiredRole: rule.role, role: actor.role },
    });
  }
  if (actor.scope !== null && !rule.scopes.includes(actor.scope)) {
    return new AppError("forbidden", `Forbidden: ${rule.what} needs an API key with scope ${rule.scopes.join(" or ")}; this key's scope is ${actor.scope}.`, {
      fields: { requiredScope: rule.scopes.join(" "), scope: actor.scope },
    });
  }
  return null;
}

/** Throws a 403 AppError naming what is missing (the role or the key scope). */
export function assertAllowed(actor: TActor, permission: TPermission): void {
  const denied = denial(actor, permission);
  if (denied) throw denied;
}

/** Every permission with whether the actor has it: what the console reads to hide what a role cannot do. */
export function permissionsOf(actor: TActor): Record<TPermission, boolean> {
  return Object.fromEntries(PERMISSION_NAMES.map((p) => [p, denial(actor, p) === null])) as Record<TPermission, boolean>;
}

/** The strongest scope a user of this role can use in full: what a new key of theirs defaults to. */
export function widestScopeFor(role: TRole): TScope {
  return role === "viewer" ? "read" : role === "member" ? "read-write" : "admin";
}
