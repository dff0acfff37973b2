import { z } from "zod";
import { ZEmail } from "../auth.schemas.ts";
import { ZRole } from "../people/roles.ts";

const ZDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be an e-mail domain such as example.com");

/** An organization's provider settings; the client secret may be left out to keep the stored one. */
export const ZSsoConfigInput = z.object({
  issuer: z.url({ protocol: /^https?$/, message: "must be the provider's issuer URL (https://…)" }).max(500),
  clientId: z.string().trim().min(1, "must not be empty").max(500),
  clientSecret: z.string().min(1).max(2000).optional(),
  enabled: z.boolean().default(true),
  jitDomains: z.array(ZDomain).max(50).default([]),
  jitRole: ZRole.default("member"),
  passwordSignIn: z.boolean().default(true),
});
export type TSsoConfigInput = z.infer<typeof ZSsoConfigInput>;

/** Where a sign-in starts: the person's e-mail (their organization, or the one that admits its domain). */
export const ZSsoStartQuery = z.object({ email: ZEmail });
