// The tRPC context: the database, the console session read from the cookie, and what the CSRF check
// and the cookie writer need to know about the request. Built per request by the fetch adapter
// (trpc.http.ts), by server components (rsc.ts), and by tests.
import { randomUUID } from "node:crypto";
import { getDb, type Database } from "../db.ts";
import { readSessionToken } from "../auth/sessions/cookies.ts";
import type { TSessionUser } from "../auth/sessions/sessions.schemas.ts";
import { getSessionUser } from "../auth/sessions/sessions.service.ts";
import { getEnv } from "../env.ts";
import { readClientInfo, type TClientInfo } from "../http/client-address.ts";
import { readWrittenPosition } from "./replica-reads.ts";

export interface TRequestInfo extends TClientInfo {
  /** The Origin header (browsers send it on every POST), or null. */
  origin: string | null;
  /** Sec-Fetch-Site, when the browser sent it. */
  fetchSite: string | null;
  /** The browser's User-Agent, shown in the list of sessions. */
  userAgent: string;
}

export interface TContext {
  db: Database;
  requestId: string;
  request: TRequestInfo;
  sessionToken: string | null;
  session: TSessionUser | null;
  /** This browser's last console write, as the primary's log position (replica-reads.ts); null when none is recent. */
  writtenAt?: string | null;
  /** Response headers the procedure may add to (Set-Cookie). */
  resHeaders: Headers;
}

/** What the CSRF check, the cookie writer and sign-in limits read; X-Forwarded-* only under REPRISE_TRUST_PROXY. */
export function readRequestInfo(headers: Headers, url: string, trustProxy = getEnv().REPRISE_TRUST_PROXY): TRequestInfo {
  return {
    origin: headers.get("origin") || null,
    fetchSite: headers.get("sec-fetch-site"),
    userAgent: headers.get("user-agent") ?? "",
    ...readClientInfo(headers, url, trustProxy),
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
    writtenAt: readWrittenPosition(opts.headers.get("cookie")),
    resHeaders: opts.resHeaders ?? new Headers(),
  };
}
