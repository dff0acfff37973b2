// Test helpers: a tRPC caller with a real context (real session lookup, real same-origin check), for
// the authorization integration tests of every console router.
import type { Database } from "../db/client.ts";
import { signIn } from "../auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../auth/sessions/sign-in-limiter.ts";
import { SESSION_COOKIE } from "../auth/sessions/cookies.ts";
import { createContext } from "./context.ts";
import { createCaller } from "./root.ts";

export const TEST_CONSOLE_ORIGIN = "http://console.test";

export interface CallerOptions {
  /** Session cookie token; omit for a signed-out caller. */
  token?: string | null;
  /** The Origin header; defaults to the console's own origin. null sends none. */
  origin?: string | null;
  ip?: string;
}

export async function createTestCaller(options: CallerOptions = {}) {
  const headers = new Headers({ host: new URL(TEST_CONSOLE_ORIGIN).host, "x-forwarded-for": options.ip ?? "203.0.113.7" });
  const origin = options.origin === undefined ? TEST_CONSOLE_ORIGIN : options.origin;
  if (origin !== null) headers.set("origin", origin);
  if (options.token) headers.set("cookie", `${SESSION_COOKIE}=${options.token}`);
  const resHeaders = new Headers();
  const ctx = await createContext({ headers, url: `${TEST_CONSOLE_ORIGIN}/api/trpc`, resHeaders });
  return Object.assign(createCaller(ctx), { resHeaders });
}

/** Signs in directly through the service and returns a caller acting as that user. */
export async function signedInCaller(db: Database, email: string, password = "correct horse battery") {
  const { token } = await signIn(db, new SignInLimiter(), { email, password }, "203.0.113.7");
  return createTestCaller({ token });
}
