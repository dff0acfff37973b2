// The admin CLI's single sign-on commands (docs/operations.md, "Single sign-on"), acting as the owner or admin named by
// --as. The client secret is written, never printed.
import { z } from "zod";
import { AdminUsageError, required, type AdminCommand, type TAdminFlags } from "../admin-flags.ts";
import { ZEmail } from "../auth.schemas.ts";
import { actorByEmail } from "../people/people.commands.ts";
import { getSsoConfig, setSsoConfig } from "./sso-config.service.ts";
import { ZSsoConfigInput } from "./sso.schemas.ts";

function bool(flags: TAdminFlags, name: string): boolean | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new AdminUsageError(`--${name} must be true or false.`);
}

function input(flags: TAdminFlags) {
  const { issuer } = required(flags, ["as", "issuer", "client-id"]);
  return ZSsoConfigInput.parse({
    issuer,
    clientId: flags["client-id"],
    clientSecret: flags["client-secret"],
    enabled: bool(flags, "enabled"),
    jitDomains: flags["jit-domains"]?.split(",").map((d) => d.trim()).filter(Boolean),
    jitRole: flags["jit-role"],
    passwordSignIn: bool(flags, "password-sign-in"),
  });
}

export const ssoCommands: Record<string, AdminCommand> = {
  "sso-show": {
    check: (flags) => z.object({ as: ZEmail }).parse(required(flags, ["as"])),
    run: async (db, flags) => {
      const actor = await actorByEmail(db, required(flags, ["as"]).as);
      return { sso: await getSsoConfig(db, actor.organizationId) };
    },
  },
  "sso-set": {
    check: (flags) => {
      ZEmail.parse(required(flags, ["as"]).as);
      input(flags);
    },
    run: async (db, flags) => {
      const actor = await actorByEmail(db, required(flags, ["as"]).as);
      return { sso: await setSsoConfig(db, actor, input(flags)) };
    },
  },
};
