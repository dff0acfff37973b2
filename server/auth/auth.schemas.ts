import type { TRole, TScope } from "./permissions.ts";
import { z } from "zod";

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "must be an email address" }));

export const ZPassword = z.string().min(8, "must be at least 8 characters").max(1024);

export const ZCreateOrganizationInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200),
  email: ZEmail,
  password: ZPassword,
  /** An exact key to register instead of generating one (headless first run). */
  apiKey: z.string().optional(),
});
export type TCreateOrganizationInput = z.input<typeof ZCreateOrganizationInput>;

/** Who an API request acts as: the key's user, their role, and the key's scope (server/auth/permissions.ts). */
export interface TAuthContext {
  organizationId: string;
  userId: string;
  apiKeyId: string;
  role: TRole;
  scope: TScope;
}

/** The /setup form: the one-time code the server printed, then the first organization and its owner. */
export const ZCompleteSetupInput = z.object({
  code: z.string().max(200),
  organizationName: z.string().trim().min(1, "must not be empty").max(200),
  email: ZEmail,
  password: ZPassword,
});
export type TCompleteSetupInput = z.infer<typeof ZCompleteSetupInput>;
