// MCP session ids without server-side state. Each POST is served by its own server and transport, so a
// session is only a token the client echoes: it names when it was issued and is signed with a hash of
// the API key that opened it. Any instance can check it, a token shown with another key is unknown,
// and an expired, closed or unknown token answers 404 so the client initialises again.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Sessions last a day; clients re-initialise transparently on the 404 that follows. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_CLOSED = 10_000;
const closed = new Map<string, number>();

function signingKey(apiKey: string): Buffer {
  return createHash("sha256").update(`reprise-mcp-session:${apiKey}`, "utf8").digest();
}

function mac(apiKey: string, body: string): string {
  return createHmac("sha256", signingKey(apiKey)).update(body, "utf8").digest("base64url");
}

export function issueSessionId(apiKey: string, now = Date.now()): string {
  const body = `${now.toString(36)}.${randomBytes(12).toString("base64url")}`;
  return `${body}.${mac(apiKey, body)}`;
}

/** True when the id was issued to this key, has not expired and was not closed. */
export function isLiveSession(sessionId: string, apiKey: string, now = Date.now()): boolean {
  const parts = sessionId.split(".");
  if (parts.length !== 3 || sessionId.length > 200) return false;
  const [issued, nonce, signature] = parts;
  const expected = Buffer.from(mac(apiKey, `${issued}.${nonce}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  const issuedAt = Number.parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || issuedAt > now + 60_000 || now - issuedAt > SESSION_TTL_MS) return false;
  return !closed.has(sessionId);
}

/** DELETE closes a session on this instance (a client that closed it does not use it again). */
export function closeSession(sessionId: string, now = Date.now()): void {
  closed.set(sessionId, now);
  if (closed.size > MAX_CLOSED) {
    for (const [id, at] of closed) if (now - at > SESSION_TTL_MS || closed.size > MAX_CLOSED) closed.delete(id);
  }
}
