import { z } from "zod";
import { ZEmail } from "../auth.schemas.ts";
import type { TRole } from "../permissions.ts";

// Sign-in takes any non-empty password: the length rule applies when a password is set, and telling
// a person "too short" at sign-in would leak nothing useful but confuse them.
export const ZSignInInput = z.object({
  email: ZEmail,
  password: z.string().min(1, "enter your password").max(1024),
});
export type TSignInInput = z.infer<typeof ZSignInInput>;

/** Who a console request acts as, resolved from the session cookie. */
export interface TSessionUser {
  sessionId: string;
  userId: string;
  organizationId: string;
  email: string;
  name: string | null;
  organizationName: string;
  /** Read at every request, so a changed role applies at once. */
  role: TRole;
}
