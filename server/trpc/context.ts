// The tRPC context: the database, the console session read from the cookie, and what the CSRF check
// and the cookie writer need to know about the request. Built per request by the fetch adapter
// (trpc.http.ts), by server components (rsc.ts), and by tests.
import { randomUUID } from "node:crypto";
import { getDb, type Database } from "../db.ts";
import { readSessionToken } from "../auth/sessions/cookies.ts";
import type { TSessionUser } from "../auth/sessions/sessions.schemas.ts";
import { getSessionUser } from "../auth/sessions/sessions.service.ts";

export interface TRequestInfo {
  /** The Origin header (browsers send it on every POST), or null. */
  origin: string | null;
  /** The host the browser addressed: X-Forwarded-Host (set by proxies and by `next start`), else Host. */
  host: string | null;
  /** Sec-Fetch-Site, when the browser sent it. */
  fetchSite: string | null;
  /** First X-Forwarded-For address (what `next start` and proxies report), for sign-in rate limiting. */
  ip: string;
  /** True when the browser talks https to us (directly or through a TLS-terminating proxy). */
  secure: boolean;
}

export interface TContext {
  db: Database;
  requestId: string;
  request: TRequestInfo;
  sessionToken: string | null;
  session: TSessionUser | null;
  /** Response headers the procedure may add to (Set-Cookie). */
  resHeaders: Headers;
}

export function readRequestInfo(headers: Headers, url: string): TRequestInfo {
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim() || null;
  const proto = first("x-forwarded-proto") ?? new URL(url).protocol.replace(":", "");
  return {
    origin: headers.get("origin") || null,
    host: first("x-forwarded-host") ?? headers.get("host"),
    fetchSite: headers.get("sec-fetch-site"),
    ip: first("x-forwarded-for") ?? first("x-real-ip") ?? "unknown",
    secure: proto === "https",
  };
}

export async function createContext(opts: { headers: Headers; url: string; resHeaders?: Headers }): Promise<TContext> {
  const db = await getDb();
  const sessionToken = readSessionToken(opts.headers.get("cookie"));
  return {
    db,
    requestId: opts.headers.get("x-request-id") ?? randomUUID(),
    request: readRequestInfo(opts.headers, opts.url),
    sessionToken,
    session: await getSessionUser(db, sessionToken),
    resHeaders: opts.resHeaders ?? new Headers(),
  };
}
