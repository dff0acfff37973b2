import { z } from "zod";
import { ZEmail, ZPassword } from "../auth.schemas.ts";
import { ZRole } from "./roles.ts";

/** Who acts: the signed-in user, or the user an API key belongs to. */
export interface TActor {
  organizationId: string;
  userId: string;
  /** The key a REST call came with (the audit log names it). */
  apiKeyId?: string;
  /** Set by the admin CLI; otherwise a key means REST and no key the console. */
  via?: "cli";
}

/** Link tokens: 32 random bytes, base64url. */
export const ZLinkToken = z.string().regex(/^[A-Za-z0-9_-]{40,60}$/, "is not a valid link");

export const ZCreateInvitationInput = z.object({
  email: ZEmail,
  role: ZRole.default("member"),
  /** How long the link stays valid. */
  expiresInDays: z.number().int().min(1).max(30).default(7),
});
export type TCreateInvitationInput = z.infer<typeof ZCreateInvitationInput>;

export const ZIdInput = z.object({ id: z.uuid() });
export const ZUserIdInput = z.object({ userId: z.uuid() });
export const ZChangeRoleInput = z.object({ userId: z.uuid(), role: ZRole });

export const ZAcceptInvitationInput = z.object({
  token: ZLinkToken,
  name: z.string().trim().max(200).optional(),
  password: ZPassword,
});
export type TAcceptInvitationInput = z.infer<typeof ZAcceptInvitationInput>;

export const ZChangePasswordInput = z.object({
  currentPassword: z.string().min(1, "enter your current password").max(1024),
  newPassword: ZPassword,
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

export const ZResetPasswordInput = z.object({ token: ZLinkToken, password: ZPassword });
export type TResetPasswordInput = z.infer<typeof ZResetPasswordInput>;

export const ZTokenInput = z.object({ token: ZLinkToken });

// REST bodies and path parameters (docs/api.md, "People").
export const ZUserIdParams = z.object({ id: z.uuid() });
export const ZRoleBody = z.object({ role: ZRole });
