// A real OpenID Connect provider for the single sign-on tests (panva's oidc-provider, run in this process): discovery,
// the authorization endpoint with its development login and consent pages, the token endpoint, published keys.
// Any login name is an account whose e-mail is that name; names starting with "unverified" have an unverified e-mail.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type CryptoKey } from "jose";
import Provider from "oidc-provider";

export const TEST_CLIENT_ID = "reprise-console";
export const TEST_CLIENT_SECRET = "a-test-client-secret-that-is-long-enough";
/** Another application registered at the same provider (its tokens are not ours). */
export const OTHER_CLIENT_ID = "another-application";

export interface TestOidcProvider {
  issuer: string;
  /** The key the provider signs its ID tokens with (the tests re-sign tampered tokens with it). */
  signingKey: CryptoKey;
  kid: string;
  close: () => Promise<void>;
}

export async function startOidcProvider(options: { port?: number; redirectUris: string[] }): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = "reprise-test-key";
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, redirect_uris: options.redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
      { client_id: OTHER_CLIENT_ID, client_secret: `${TEST_CLIENT_SECRET}-other`, redirect_uris: options.redirectUris, grant_types: ["authorization_code"], response_types: ["code"] },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["reprise-test-provider-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Put the e-mail in the ID token itself (as Google, Entra and Okta do), not only behind the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id, email_verified: !id.startsWith("unverified"), name: id.split("@")[0] }),
    }),
  });
  server.on("request", provider.callback());
  return {
    issuer,
    signingKey: privateKey,
    kid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Goes through the provider's login and consent pages as a browser would (cookies, redirects, forms) and returns the
 * URL the provider sends the browser back to (the callback, with code and state).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, { method: body ? "POST" : "GET", body, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(callbackPrefix)) return next;
      url = next.href;
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${res.status} without a form: ${html.slice(0, 300)}`);
    body = new URLSearchParams();
    for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) body.set(m[1]!, m[2]!);
    if (/name="login"/.test(html)) {
      body.set("login", login);
      body.set("password", "any password");
    }
    url = new URL(action, url).href;
  }
  throw new Error("the provider did not send the browser back");
}
