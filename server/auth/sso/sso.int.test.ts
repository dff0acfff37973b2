// Single sign-on against a real OpenID Connect provider run in this process (test/oidc-provider.ts): the browser's way
// through the REST handlers, matching by verified e-mail, just-in-time membership, password sign-in turned off, and
// the refusals: a wrong audience, an expired ID token, a replayed state, an unverified e-mail, another browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, SignJWT } from "jose";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { OTHER_CLIENT_ID, signInAtProvider, startOidcProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestOidcProvider } from "../../../test/oidc-provider.ts";
import { getSsoCallback, getSsoStart } from "../../http/sso.http.ts";
import { createTestCaller, signedInCaller } from "../../trpc/testing.ts";
import { runAdminCommand } from "../admin-commands.ts";
import { getSessionUser } from "../sessions/sessions.service.ts";

const ORIGIN = "http://reprise.test";
const CALLBACK = `${ORIGIN}/api/auth/sso/callback`;

describe("single sign-on over OpenID Connect", () => {
  const db = useTestDatabase();
  let provider: TestOidcProvider;
  let org: TestOrg;
  let other: TestOrg;

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [CALLBACK] });
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other");
    const owner = await signedInCaller(db(), org.email);
    await owner.sso.set({ issuer: provider.issuer, clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET, jitDomains: ["corp.test"], jitRole: "viewer" });
  });
  afterAll(async () => provider?.close());

  /** Starts at our handler, goes through the provider's pages, and returns the callback request the browser makes. */
  async function throughProvider(email: string, login = email) {
    const start = await getSsoStart(new Request(`${ORIGIN}/api/auth/sso/start?email=${encodeURIComponent(email)}`));
    expect(start.status).toBe(303);
    const location = start.headers.get("location")!;
    expect(location.startsWith(provider.issuer)).toBe(true);
    const authUrl = new URL(location);
    expect(authUrl.searchParams.get("code_challenge_method")).toBe("S256");
    const state = /reprise_sso=([^;]+)/.exec(start.headers.getSetCookie().join("\n"))![1]!;
    const back = await signInAtProvider(location, login, CALLBACK);
    return { url: back.href, cookie: `reprise_sso=${state}` };
  }
  const callback = (c: { url: string; cookie: string }, fetchImpl?: typeof fetch) => getSsoCallback(new Request(c.url, { headers: { cookie: c.cookie } }), fetchImpl);
  const refusalOf = (res: Response) => decodeURIComponent(/ssoError=([^&]*)/.exec(res.headers.get("location") ?? "")?.[1] ?? "");
  const sessionOf = (res: Response) => /reprise_session=([^;]+)/.exec(res.headers.getSetCookie().join("\n"))?.[1] ?? null;

  it("signs an existing user in by verified e-mail (code + PKCE), and refuses the same state replayed", async () => {
    const back = await throughProvider(org.email);
    const res = await callback(back);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const user = await getSessionUser(db(), sessionOf(res));
    expect(user).toMatchObject({ userId: org.userId, organizationId: org.organizationId });

    const replay = await callback(back);
    expect(sessionOf(replay)).toBeNull();
    expect(refusalOf(replay)).toMatch(/already used or is unknown \(a replayed state\)/);
  });

  it("admits a new verified address of an admitted domain with the default role; refuses other domains", async () => {
    const email = `new-${crypto.randomUUID().slice(0, 8)}@corp.test`;
    const res = await callback(await throughProvider(email));
    expect(sessionOf(res)).not.toBeNull();
    expect(await db().prisma.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ organizationId: org.organizationId, role: "viewer" });

    const stranger = await getSsoStart(new Request(`${ORIGIN}/api/auth/sso/start?email=someone@elsewhere.test`));
    expect(refusalOf(stranger)).toMatch(/No single sign-on is set up for someone@elsewhere.test/);
  });

  it("refuses an e-mail the provider has not verified", async () => {
    const email = `unverified-${crypto.randomUUID().slice(0, 8)}@corp.test`;
    const res = await callback(await throughProvider(email));
    expect(sessionOf(res)).toBeNull();
    expect(refusalOf(res)).toMatch(/has not verified/);
    expect(await db().prisma.user.count({ where: { email } })).toBe(0);
  });

  it("refuses a callback that did not start in this browser", async () => {
    const back = await throughProvider(org.email);
    const res = await callback({ url: back.url, cookie: "reprise_sso=someone-elses" });
    expect(refusalOf(res)).toMatch(/did not start in this browser/);
  });

  /** The provider's token answer with its ID token re-signed by the provider's own key after `change`. */
  const tampering = (change: (claims: Record<string, unknown>) => Record<string, unknown>): typeof fetch => async (input, init) => {
    const res = await fetch(input, init);
    if (!String(input instanceof Request ? input.url : input).endsWith("/token")) return res;
    const body = (await res.json()) as { id_token: string };
    const claims = change(decodeJwt(body.id_token) as Record<string, unknown>);
    body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: provider.kid }).sign(provider.signingKey);
    return new Response(JSON.stringify(body), { status: res.status, headers: { "content-type": "application/json" } });
  };

  it("refuses an ID token issued to another application (wrong audience)", async () => {
    const res = await callback(await throughProvider(org.email), tampering((c) => ({ ...c, aud: OTHER_CLIENT_ID, azp: OTHER_CLIENT_ID })));
    expect(sessionOf(res)).toBeNull();
    expect(refusalOf(res)).toMatch(/issued to another application \(wrong audience\)/);
  });

  it("refuses an expired ID token", async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    const res = await callback(await throughProvider(org.email), tampering((c) => ({ ...c, iat: past - 60, exp: past })));
    expect(sessionOf(res)).toBeNull();
    expect(refusalOf(res)).toMatch(/ID token has expired/);
  });

  it("keeps the client secret to itself, lets only admins change it, and can turn password sign-in off", async () => {
    const owner = await signedInCaller(db(), org.email);
    const shown = await owner.sso.get();
    expect(shown).toMatchObject({ issuer: provider.issuer, clientId: TEST_CLIENT_ID, hasClientSecret: true, jitDomains: ["corp.test"] });
    expect(JSON.stringify(shown)).not.toContain(TEST_CLIENT_SECRET);
    const cli = await runAdminCommand(db(), "sso-show", { as: org.email });
    expect(JSON.stringify(cli)).not.toContain(TEST_CLIENT_SECRET);

    const viewerEmail = (await db().prisma.user.findFirstOrThrow({ where: { organizationId: org.organizationId, role: "viewer" } })).email;
    await db().prisma.user.updateMany({ where: { email: viewerEmail }, data: { passwordHash: (await db().prisma.user.findUniqueOrThrow({ where: { id: org.userId } })).passwordHash } });
    const viewer = await signedInCaller(db(), viewerEmail);
    await expect(viewer.sso.set({ issuer: "https://evil.test", clientId: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(owner.sso.set({ issuer: "not a url", clientId: "x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(owner.sso.set({ issuer: provider.issuer, clientId: TEST_CLIENT_ID, enabled: false, passwordSignIn: false })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await owner.sso.get())?.issuer).toBe(provider.issuer);

    // Turned off (here through the admin CLI, keeping the stored secret): passwords no longer sign in, SSO does.
    await runAdminCommand(db(), "sso-set", { as: org.email, issuer: provider.issuer, "client-id": TEST_CLIENT_ID, "jit-domains": "corp.test", "password-sign-in": "false" });
    await expect((await createTestCaller()).session.signIn({ email: org.email, password: "correct horse battery" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(sessionOf(await callback(await throughProvider(org.email)))).not.toBeNull();
    // Every save is kept with who made it; an earlier one can be restored (the secret never shown).
    const versions = await owner.sso.versions();
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]).toMatchObject({ passwordSignIn: false, savedBy: org.email, secretChanged: false });
    expect(versions[1]).toMatchObject({ passwordSignIn: true, jitRole: "viewer", secretChanged: true });
    expect(JSON.stringify(versions)).not.toContain(TEST_CLIENT_SECRET);
    await expect(viewer.sso.versions()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(owner.sso.restore({ version: 99 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await owner.sso.restore({ version: 1 })).toMatchObject({ version: 3, passwordSignIn: true, jitRole: "viewer", hasClientSecret: true });
    expect(await (await createTestCaller()).session.signIn({ email: org.email, password: "correct horse battery" })).toMatchObject({ userId: org.userId });
    // Another organization is untouched.
    expect(await (await signedInCaller(db(), other.email)).session.me()).not.toBeNull();
  });
});
