// REST handlers of /api/sdk/users/**, /api/sdk/invitations/** and /api/sdk/account/password (docs/api.md, "People").
// Thin: parse, call the service. The API key acts as its user, with that user's role.
import { getEnv } from "../env.ts";
import { defineRoute } from "./define-route.ts";
import { createInvitation, findInvitations, revokeInvitation } from "../auth/people/invitations.service.ts";
import { findPeople, removeUser, restoreUser } from "../auth/people/members.service.ts";
import { setRole } from "../auth/roles/roles.service.ts";
import { changeOwnPassword, createPasswordReset } from "../auth/people/passwords.service.ts";
import { ZChangePasswordInput, ZCreateInvitationInput, ZRoleBody, ZUserIdParams } from "../auth/people/people.schemas.ts";

/** The absolute address of a console link: REPRISE_PUBLIC_URL when set, else the request's own origin. */
const absolute = (request: Request, path: string) => new URL(path, getEnv().REPRISE_PUBLIC_URL ?? new URL(request.url).origin).toString();

export const listUsers = defineRoute({
  permission: "read",
  handler: async ({ db, auth }) => ({ users: await findPeople(db, auth.organizationId) }),
});

export const postRemoveUser = defineRoute({
  permission: "manage-users",
  params: ZUserIdParams,
  handler: ({ db, auth, params }) => removeUser(db, auth, params.id),
});

export const postRestoreUser = defineRoute({
  permission: "manage-users",
  params: ZUserIdParams,
  handler: ({ db, auth, params }) => restoreUser(db, auth, params.id),
});

export const postUserRole = defineRoute({
  permission: "manage-users",
  params: ZUserIdParams,
  body: ZRoleBody,
  handler: async ({ db, auth, actor, params, body }) => {
    await setRole(db, auth, actor, params.id, body.role);
    return { user: (await findPeople(db, auth.organizationId)).find((u) => u.id === params.id) };
  },
});

export const postUserPasswordReset = defineRoute({
  permission: "manage-users",
  params: ZUserIdParams,
  handler: async ({ request, db, auth, params }) => {
    const reset = await createPasswordReset(db, auth, params.id);
    return { userId: reset.userId, expiresAt: reset.expiresAt, url: absolute(request, reset.path) };
  },
});

export const listInvitations = defineRoute({
  permission: "manage-users",
  handler: async ({ db, auth }) => ({ invitations: await findInvitations(db, auth) }),
});

export const postInvitation = defineRoute({
  permission: "manage-users",
  body: ZCreateInvitationInput,
  handler: async ({ request, db, auth, body }) => {
    const { invitation, path } = await createInvitation(db, auth, body);
    return { invitation, url: absolute(request, path) };
  },
});

export const postRevokeInvitation = defineRoute({
  permission: "manage-users",
  params: ZUserIdParams,
  handler: ({ db, auth, params }) => revokeInvitation(db, auth, params.id),
});

export const postAccountPassword = defineRoute({
  permission: "own-account",
  body: ZChangePasswordInput,
  handler: ({ db, auth, body }) => changeOwnPassword(db, auth, body),
});
