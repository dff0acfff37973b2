// API key format (docs/api.md, "Common rules"): "rp_" followed by at least 32 random characters; stored only as a hash.
import { createHash, randomBytes } from "node:crypto";

const KEY_RE = /^rp_[A-Za-z0-9_-]{32,200}$/;

export function generateApiKey(): string {
  return `rp_${randomBytes(32).toString("base64url")}`;
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_RE.test(key);
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What the console shows to tell keys apart: "rp_abcd…wxyz". */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 7)}…${key.slice(-4)}`;
}
