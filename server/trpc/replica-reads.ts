// Which database a console procedure reads (docs/scaling.md, "4. A read replica for the console"). With a read
// replica configured, the queries of the trace list and trace pages, datasets and replays go to it; everything
// else (mutations, settings, sessions, the review queue, and every SDK, replay and MCP request, which never come
// through here) stays on the primary. Read-your-writes: after a mutation of the console succeeds, a cookie carries
// the primary's write-ahead log position, and this browser's reads stay on the primary until the replica has
// replayed that far. A replica that fails to answer is left alone for a few seconds, and the read runs again on
// the primary.
import type { Database } from "../db.ts";
import { isConnectionFailure, primaryWalPosition, type TReadReplica } from "../db/read-replica.ts";

/** The routers whose queries read from the replica. */
const REPLICA_ROUTERS = ["traces.", "datasets.", "replays."];
export const WRITTEN_COOKIE = "reprise_written";
/** How long a browser's reads wait for the replica to show its write before that no longer matters. */
const WRITTEN_MAX_AGE_SECONDS = 300;

export function readsFromReplica(path: string): boolean {
  return REPLICA_ROUTERS.some((prefix) => path.startsWith(prefix));
}

/** The write-ahead log position of this browser's last console write (the cookie), or null. */
export function readWrittenPosition(cookieHeader: string | null): string | null {
  for (const part of cookieHeader?.split(";") ?? []) {
    const [name, value] = [part.slice(0, part.indexOf("=")).trim(), part.slice(part.indexOf("=") + 1).trim()];
    if (name === WRITTEN_COOKIE && /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i.test(value)) return value;
  }
  return null;
}

/** After a console write: the cookie that keeps this browser's reads on the primary until the replica shows it. */
export async function writtenCookie(db: Database, secure: boolean): Promise<string | null> {
  const position = await primaryWalPosition(db).catch(() => null);
  if (!position) return null;
  return [`${WRITTEN_COOKIE}=${position}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${WRITTEN_MAX_AGE_SECONDS}`, ...(secure ? ["Secure"] : [])].join("; ");
}

/** The replica's database for this read, or undefined to read the primary (none, gone, or behind this browser's write). */
export async function replicaFor(replica: TReadReplica | undefined, written: string | null): Promise<TReadReplica | undefined> {
  if (!replica?.available()) return undefined;
  if (!written) return replica;
  try {
    return (await replica.hasReplayed(written)) ? replica : undefined;
  } catch (error) {
    if (isConnectionFailure(error)) replica.markUnavailable();
    return undefined;
  }
}

export { isConnectionFailure };
