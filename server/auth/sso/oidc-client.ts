// The OpenID Connect relying party, over openid-client: discovery from the issuer URL, the authorization URL with PKCE
// (S256), state and nonce, and the code exchange whose ID token openid-client verifies (signature against the
// provider's published keys, issuer, audience, expiry, nonce). Plain http is allowed only for a provider on this
// machine (a development or test provider).
import * as oidc from "openid-client";

export type TFetch = typeof fetch;

export interface TProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const isLoopback = (url: URL) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

export async function discover(provider: TProvider, fetchImpl?: TFetch): Promise<oidc.Configuration> {
  const issuer = new URL(provider.issuer);
  const insecure = issuer.protocol === "http:" && isLoopback(issuer);
  const config = await oidc.discovery(issuer, provider.clientId, provider.clientSecret, undefined, {
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
    ...(fetchImpl ? { [oidc.customFetch]: fetchImpl as never } : {}),
    timeout: 10,
  });
  return config;
}

export interface TLoginSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationUrl(config: oidc.Configuration, redirectUri: string, secrets: TLoginSecrets, loginHint?: string): Promise<string> {
  return oidc
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: "S256",
      ...(loginHint ? { login_hint: loginHint } : {}),
    })
    .toString();
}

export const randomSecrets = (state: string): TLoginSecrets => ({ state, nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() });

export interface TIdentity {
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** Exchanges the code and returns who the verified ID token says signed in; throws openid-client's errors. */
export async function exchangeCode(config: oidc.Configuration, callbackUrl: URL, secrets: TLoginSecrets): Promise<TIdentity> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.codeVerifier,
    expectedState: secrets.state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider sent no ID token");
  return {
    email: typeof claims.email === "string" ? claims.email.toLowerCase() : null,
    emailVerified: claims.email_verified === true || claims.email_verified === "true",
    name: typeof claims.name === "string" ? claims.name : null,
  };
}

/** The JWT claim a validation failure names (openid-client wraps oauth4webapi's error, which names it in its cause). */
function failedClaim(error: unknown): string | undefined {
  for (let e = error as { claim?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.claim === "string") return e.claim;
  }
  return undefined;
}

/** A person-readable reason for a refused sign-in, from openid-client's error. */
export function describeOidcError(error: unknown): string {
  const e = error as { message?: string; error?: string; error_description?: string };
  const claim = failedClaim(error);
  if (claim === "aud" || claim === "azp") return "The provider's ID token was issued to another application (wrong audience).";
  if (claim === "exp" || claim === "iat" || claim === "nbf") return "The provider's ID token has expired (or is not valid yet). Sign in again.";
  if (claim === "nonce") return "The provider's ID token does not belong to this sign-in (nonce mismatch).";
  if (claim === "iss") return "The ID token came from another issuer than the one configured.";
  if (e?.error) return `The provider refused the sign-in: ${e.error}${e.error_description ? ` (${e.error_description})` : ""}.`;
  return `Single sign-on failed: ${e?.message ?? String(error)}`;
}
