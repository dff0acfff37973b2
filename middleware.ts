// The console's security headers (docs/api/console.md, "Security headers"): a Content-Security-Policy with a
// fresh nonce per request, which Next.js puts on its own scripts (every page renders per request, see
// app/layout.tsx), so no other inline script runs; no framing; no referrer to other sites; no sniffing.
// Runs on the Edge runtime, so it imports nothing from server/. The API, the agents' and OpenTelemetry
// doors and the SDK downloads (/sdk, /go) are not matched: their guards live in server/http/request-gate.ts.
import { NextResponse, type NextRequest } from "next/server";

/** The console's policy: scripts only from our origin with this request's nonce, never framed. */
export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React's style={…} attributes are inline styles; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function middleware(request: NextRequest): NextResponse {
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("x-frame-options", "DENY");
  response.headers.set("referrer-policy", "same-origin");
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}

export const config = {
  matcher: ["/((?!api(?:/|$)|mcp(?:/|$)|v1/|sdk(?:/|$)|go/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
