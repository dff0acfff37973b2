import { z } from "zod";
import { ZEmail, ZPassword } from "../auth.schemas.ts";
import { ROLES, SCOPES } from "../permissions.ts";

export const ZScope = z.enum(SCOPES, { message: `must be one of ${SCOPES.join(", ")}` });
export const ZRole = z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` });

/** A new key: its scope, and optionally the number of days it works (none: it never expires). */
export const ZCreateApiKeyInput = z.object({
  name: z.string().trim().max(100).default(""),
  scope: ZScope,
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type TCreateApiKeyInput = z.infer<typeof ZCreateApiKeyInput>;
export const ZRevokeApiKeyInput = z.object({ id: z.uuid() });
export const ZCreateUserInput = z.object({
  email: ZEmail,
  name: z.string().trim().max(200).optional(),
  password: ZPassword,
  /** The new user's role (member unless given). */
  role: ZRole.default("member"),
});
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;

