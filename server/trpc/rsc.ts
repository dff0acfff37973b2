// A tRPC caller for server components (the console layout asks who is signed in before rendering).
// Same context and procedures as the HTTP endpoint; cookies cannot be set from here.
import { headers } from "next/headers";
import { TRPCError } from "@trpc/server";
import { isDatabaseUnavailable } from "../errors.ts";
import { createContext } from "./context.ts";
import { createCaller } from "./root.ts";

export async function getServerCaller() {
  const h = new Headers(await headers());
  // Server components only read (no cookie is set, no mutation runs), so the scheme does not matter here.
  return createCaller(await createContext({ headers: h, url: `http://${h.get("host") ?? "localhost"}/` }));
}

/** What `readUnlessOutage` gives instead of throwing while the database is not there. */
export const DATABASE_OUTAGE = Symbol("database outage");

/**
 * Runs a server component's reads; while the database is unreachable or refusing connections it gives
 * DATABASE_OUTAGE instead of throwing, so the page renders the outage notice rather than a 500
 * (docs/api/console.md). Other errors, redirects included, pass through.
 */
export async function readUnlessOutage<T>(read: () => Promise<T>): Promise<T | typeof DATABASE_OUTAGE> {
  try {
    return await read();
  } catch (error) {
    if ((error instanceof TRPCError && error.code === "SERVICE_UNAVAILABLE") || isDatabaseUnavailable(error)) return DATABASE_OUTAGE;
    throw error;
  }
}

/** True when a caller refused its input (400): the page treats the value as absent or wrong, never as a 500. */
export function isBadInput(error: unknown): boolean {
  return error instanceof TRPCError && error.code === "BAD_REQUEST";
}
