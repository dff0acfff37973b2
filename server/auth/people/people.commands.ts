// The admin CLI's people commands (docs/operations.md, "People and invitations"). Each runs as the owner or admin named
// by --as, with that person's rights, in that person's organization: the same services the console and REST call.
import { z } from "zod";
import type { Database, DbClient } from "../../db/client.ts";
import { getEnv } from "../../env.ts";
import { AppError } from "../../errors.ts";
import { required, type AdminCommand, type TAdminFlags } from "../admin-flags.ts";
import { ZEmail } from "../auth.schemas.ts";
import { createInvitation, revokeInvitation } from "./invitations.service.ts";
import { findPeople, removeUser, restoreUser } from "./members.service.ts";
import { createPasswordReset } from "./passwords.service.ts";
import * as q from "./people.queries.ts";
import { ZCreateInvitationInput } from "./people.schemas.ts";
import type { TActor } from "./people.schemas.ts";

/** The person a command acts as (--as EMAIL): an active user. */
export async function actorByEmail(db: DbClient, email: string): Promise<TActor> {
  const user = await q.findUserByEmail(db, ZEmail.parse(email));
  if (!user || user.removedAt) throw new AppError("not_found", `No active user with email ${email} (--as).`);
  return { organizationId: user.organizationId, userId: user.id, via: "cli" };
}

/** The user of the actor's organization with this email; another organization's is as unknown as a missing one. */
export async function userIdInOrganization(db: DbClient, actor: TActor, email: string): Promise<string> {
  const user = await q.findUserByEmail(db, ZEmail.parse(email));
  if (!user || user.organizationId !== actor.organizationId) throw new AppError("not_found", `No user with email ${email} in this organization.`);
  return user.id;
}

/** A console link: absolute under REPRISE_PUBLIC_URL, else the path to open on the console's address. */
const link = (path: string) => {
  const base = getEnv().REPRISE_PUBLIC_URL;
  return base ? { url: new URL(path, base).toString() } : { path };
};


const asAndEmail = (flags: TAdminFlags) => z.object({ as: ZEmail, email: ZEmail }).parse(required(flags, ["as", "email"]));

/** A command acting as --as on the user named by --email. */
function onUser(run: (db: Database, actor: TActor, userId: string, flags: TAdminFlags) => Promise<Record<string, unknown>>): AdminCommand {
  return {
    check: asAndEmail,
    run: async (db, flags) => {
      const { as, email } = asAndEmail(flags);
      const actor = await actorByEmail(db, as);
      return run(db, actor, await userIdInOrganization(db, actor, email), flags);
    },
  };
}

export const peopleCommands: Record<string, AdminCommand> = {
  "list-users": {
    check: (flags) => z.object({ as: ZEmail }).parse(required(flags, ["as"])),
    run: async (db, flags) => {
      const actor = await actorByEmail(db, required(flags, ["as"]).as);
      return { users: await findPeople(db, actor.organizationId) };
    },
  },
  "invite-user": {
    check: (flags) => {
      asAndEmail(flags);
      ZCreateInvitationInput.parse({ email: flags.email, role: flags.role, expiresInDays: flags.days === undefined ? undefined : Number(flags.days) });
    },
    run: async (db, flags) => {
      const { as, email } = asAndEmail(flags);
      const input = ZCreateInvitationInput.parse({ email, role: flags.role, expiresInDays: flags.days === undefined ? undefined : Number(flags.days) });
      const { invitation, path } = await createInvitation(db, await actorByEmail(db, as), input);
      return { invitation, ...link(path) };
    },
  },
  "revoke-invitation": {
    check: (flags) => z.object({ as: ZEmail, id: z.uuid() }).parse(required(flags, ["as", "id"])),
    run: async (db, flags) => {
      const { as, id } = required(flags, ["as", "id"]);
      return revokeInvitation(db, await actorByEmail(db, as), id);
    },
  },
  "remove-user": onUser((db, actor, userId) => removeUser(db, actor, userId)),
  "restore-user": onUser((db, actor, userId) => restoreUser(db, actor, userId)),
  "reset-password-link": onUser(async (db, actor, userId) => {
    const reset = await createPasswordReset(db, actor, userId);
    return { userId, expiresAt: reset.expiresAt, ...link(reset.path) };
  }),
};
