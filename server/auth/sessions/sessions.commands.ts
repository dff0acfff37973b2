// The admin CLI's session commands (docs/operations.md, "Sessions"): list and end a user's console sessions, acting as
// the owner or admin named by --as.
import { z } from "zod";
import { required, type AdminCommand, type TAdminFlags } from "../admin-flags.ts";
import { ZEmail } from "../auth.schemas.ts";
import { actorByEmail, userIdInOrganization } from "../people/people.commands.ts";
import { findSessions, revokeAllSessions } from "./session-list.service.ts";

const check = (flags: TAdminFlags) => z.object({ as: ZEmail, email: ZEmail }).parse(required(flags, ["as", "email"]));

export const sessionCommands: Record<string, AdminCommand> = {
  "list-sessions": {
    check,
    run: async (db, flags) => {
      const { as, email } = check(flags);
      const actor = await actorByEmail(db, as);
      return { sessions: await findSessions(db, actor, await userIdInOrganization(db, actor, email)) };
    },
  },
  "end-sessions": {
    check,
    run: async (db, flags) => {
      const { as, email } = check(flags);
      const actor = await actorByEmail(db, as);
      return revokeAllSessions(db, actor, await userIdInOrganization(db, actor, email));
    },
  },
};
