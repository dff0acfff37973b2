// CSRF defence for cookie-authenticated mutations. tRPC v11 only accepts JSON
// bodies for our procedures (trpc.http.ts refuses other content types before tRPC sees them), so
// a cross-site HTML form cannot reach a mutation; on top of that, a mutation must come from our own
// origin: the Origin header's host must be the host the request addressed.
import type { TRequestInfo } from "./context.ts";

export function isSameOriginRequest(request: TRequestInfo): boolean {
  if (request.origin === null) {
    // Browsers send Origin on every POST; without it, accept only what the browser itself marks same-origin.
    return request.fetchSite === "same-origin";
  }
  if (request.origin === "null" || request.host === null) return false;
  try {
    return new URL(request.origin).host.toLowerCase() === request.host.toLowerCase();
  } catch {
    return false;
  }
}
