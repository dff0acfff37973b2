// The tokens of invitation and password-reset links: 32 random bytes shown once, only their sha256 stored.
import { createHash, randomBytes } from "node:crypto";

export const generateLinkToken = () => randomBytes(32).toString("base64url");
export const hashLinkToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The console paths the links open (the surfaces put the origin in front). */
export const invitationPath = (token: string) => `/invite/${token}`;
export const passwordResetPath = (token: string) => `/reset-password/${token}`;
