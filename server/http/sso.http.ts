// GET /api/auth/sso/start?email=… and GET /api/auth/sso/callback (docs/operations.md, "Single sign-on"): the browser's
// way through the organization's OpenID Connect provider. The start keeps the state in a short-lived HttpOnly cookie
// bound to this browser; the callback opens a console session. A refusal goes back to the sign-in page with its
// reason, which the page shows.
import { randomUUID } from "node:crypto";
import { serializeSessionCookie } from "../auth/sessions/cookies.ts";
import { completeSsoLogin, SSO_LOGIN_TTL_MS, startSsoLogin } from "../auth/sso/sso-login.service.ts";
import { ZSsoStartQuery } from "../auth/sso/sso.schemas.ts";
import { getDb } from "../db.ts";
import { getEnv } from "../env.ts";
import { AppError } from "../errors.ts";
import { readClientInfo } from "./client-address.ts";
import { toAppError } from "./responses.ts";
import type { TFetch } from "../auth/sso/oidc-client.ts";

const STATE_COOKIE = "reprise_sso";
const CALLBACK_PATH = "/api/auth/sso/callback";

function origin(request: Request): { base: string; secure: boolean } {
  const info = readClientInfo(request.headers, request.url, getEnv().REPRISE_TRUST_PROXY);
  const configured = getEnv().REPRISE_PUBLIC_URL;
  if (configured) return { base: configured.replace(/\/+$/, ""), secure: configured.startsWith("https:") };
  return { base: `${info.secure ? "https" : "http"}://${info.host ?? new URL(request.url).host}`, secure: info.secure };
}

const stateCookie = (value: string, maxAgeSeconds: number, secure: boolean) =>
  [`${STATE_COOKIE}=${value}`, "Path=/api/auth/sso", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`, ...(secure ? ["Secure"] : [])].join("; ");

function readStateCookie(request: Request): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === STATE_COOKIE) return rest.join("=") || null;
  }
  return null;
}

function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
}

/** Back to the sign-in page with the reason; AppErrors say it in words, anything else is logged with its request id. */
function refusal(request: Request, error: unknown, secure: boolean): Response {
  const appError = error instanceof AppError ? error : toAppError(error, request.headers.get("x-request-id") ?? randomUUID());
  return redirect(`/sign-in?ssoError=${encodeURIComponent(appError.message)}`, [stateCookie("", 0, secure)]);
}

export async function getSsoStart(request: Request, fetchImpl?: TFetch): Promise<Response> {
  const { base, secure } = origin(request);
  try {
    const parsed = ZSsoStartQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw new AppError("bad_request", "Enter your work e-mail address to sign in with SSO.");
    const { url, state } = await startSsoLogin(await getDb(), parsed.data.email, `${base}${CALLBACK_PATH}`, fetchImpl);
    return redirect(url, [stateCookie(state, SSO_LOGIN_TTL_MS / 1000, secure)]);
  } catch (error) {
    return refusal(request, error, secure);
  }
}

export async function getSsoCallback(request: Request, fetchImpl?: TFetch): Promise<Response> {
  const { base, secure } = origin(request);
  try {
    const info = readClientInfo(request.headers, request.url, getEnv().REPRISE_TRUST_PROXY);
    // The URL as the provider addressed it (behind a proxy the request's own URL names the inner address).
    const callbackUrl = new URL(`${base}${CALLBACK_PATH}${new URL(request.url).search}`);
    const session = await completeSsoLogin(
      await getDb(),
      { callbackUrl, cookieState: readStateCookie(request), client: { ip: info.ip, userAgent: request.headers.get("user-agent") ?? "" } },
      fetchImpl,
    );
    return redirect("/", [stateCookie("", 0, secure), serializeSessionCookie(session.token, session.expiresAt, secure)]);
  } catch (error) {
    return refusal(request, error, secure);
  }
}
