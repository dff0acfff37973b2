import { z } from "zod";
import { ZEmail, ZPassword } from "../auth.schemas.ts";

export const ZCreateApiKeyInput = z.object({ name: z.string().trim().max(100).default("") });
export const ZRevokeApiKeyInput = z.object({ id: z.uuid() });
export const ZCreateUserInput = z.object({
  email: ZEmail,
  name: z.string().trim().max(200).optional(),
  password: ZPassword,
});
export type TCreateUserInput = z.infer<typeof ZCreateUserInput>;
