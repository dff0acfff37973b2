// Console sessions: sign-in/out, cookie flags, expiry, rate limiting, CSRF checks.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTestCaller, signedInCaller, TEST_CONSOLE_ORIGIN } from "../../trpc/testing.ts";
import { handleTrpc } from "../../trpc/trpc.http.ts";
import { MAX_FAILURES_PER_EMAIL_AND_IP } from "./sign-in-limiter.ts";
import { hashSessionToken } from "./sessions.service.ts";

const PASSWORD = "correct horse battery";
const host = new URL(TEST_CONSOLE_ORIGIN).host;

/** POSTs a tRPC mutation over HTTP through the real route handler. */
function mutate(path: string, input: unknown, headers: Record<string, string> = {}) {
  return call(handleTrpc, {
    path: `/api/trpc/${path}`,
    body: JSON.stringify({ json: input }),
    headers: { host, origin: TEST_CONSOLE_ORIGIN, "content-type": "application/json", ...headers },
  });
}

function query(path: string, headers: Record<string, string> = {}) {
  return call(handleTrpc, { path: `/api/trpc/${path}`, method: "GET", headers: { host, ...headers } });
}

const cookieOf = (res: { headers: Headers }) => res.headers.get("set-cookie") ?? "";
const tokenOf = (setCookie: string) => /reprise_session=([^;]*)/.exec(setCookie)?.[1] ?? "";

describe("console sessions", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  it("signs in over HTTP with an HttpOnly, SameSite=Lax cookie that expires, and stores only the token's hash", async () => {
    const res = await mutate("session.signIn", { email: org.email.toUpperCase(), password: PASSWORD }, { "x-forwarded-for": "198.51.100.1" });
    expect(res.status).toBe(200);
    const setCookie = cookieOf(res);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=\d{6,}/);
    expect(setCookie).not.toMatch(/Secure/);
    const token = tokenOf(setCookie);
    const rows = await db().prisma.consoleSession.findMany({ where: { userId: org.userId } });
    expect(rows.map((r) => r.tokenHash)).toContain(hashSessionToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const me = await query("session.me", { cookie: `reprise_session=${token}` });
    expect(me.body.result.data.json).toMatchObject({ userId: org.userId, organizationId: org.organizationId, email: org.email });
  });

  it("marks the cookie Secure when the console is served over https", async () => {
    const res = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.2" });
    expect(res.status).toBe(200);
    expect(cookieOf(res)).toMatch(/; Secure/);
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const wrong = await mutate("session.signIn", { email: org.email, password: "nope-nope" }, { "x-forwarded-for": "198.51.100.3" });
    const unknown = await mutate("session.signIn", { email: "nobody@example.com", password: "nope-nope" }, { "x-forwarded-for": "198.51.100.3" });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.json.message).toBe("Wrong email or password.");
      expect(cookieOf(res)).toBe("");
    }
  });

  it("rate-limits failed sign-ins per email and IP, and leaves other IPs alone", async () => {
    const email = org.email;
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      expect((await mutate("session.signIn", { email, password: "wrong-guess" }, { "x-forwarded-for": "192.0.2.50" })).status).toBe(401);
    }
    // Even the right password is refused now from that IP: the lockout is not an oracle.
    const locked = await mutate("session.signIn", { email, password: PASSWORD }, { "x-forwarded-for": "192.0.2.50" });
    expect(locked.status).toBe(429);
    expect(locked.body.error.json.data.appCode).toBe("rate_limited");
    const elsewhere = await mutate("session.signIn", { email, password: PASSWORD }, { "x-forwarded-for": "192.0.2.51" });
    expect(elsewhere.status).toBe(200);
  });

  it("rejects invalid sign-in input with a 400 listing the field", async () => {
    const res = await mutate("session.signIn", { email: "not-an-email", password: "" });
    expect(res.status).toBe(400);
    expect(res.body.error.json.data.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("signs out: the session row is gone, the cookie is cleared, the token no longer works", async () => {
    const caller = await signedInCaller(db(), org.email);
    const signIn = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.9" });
    const token = tokenOf(cookieOf(signIn));
    expect(await caller.session.me()).not.toBeNull();
    const out = await mutate("session.signOut", undefined, { cookie: `reprise_session=${token}` });
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toMatch(/reprise_session=;.*Max-Age=0/);
    expect(await db().prisma.consoleSession.count({ where: { tokenHash: hashSessionToken(token) } })).toBe(0);
    expect(await (await createTestCaller({ token })).session.me()).toBeNull();
  });

  it("treats an expired session as signed out", async () => {
    const signIn = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.10" });
    const token = tokenOf(cookieOf(signIn));
    await db().prisma.consoleSession.update({ where: { tokenHash: hashSessionToken(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const caller = await createTestCaller({ token });
    expect(await caller.session.me()).toBeNull();
    await expect(caller.apiKeys.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("refuses protected procedures without a session, over HTTP too", async () => {
    await expect((await createTestCaller()).users.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const res = await query("users.list");
    expect(res.status).toBe(401);
  });

  describe("CSRF", () => {
    it("refuses a mutation from another origin, even with a valid session", async () => {
      const caller = await createTestCaller({ token: (await tokenFor()).token, origin: "https://evil.example" });
      await expect(caller.apiKeys.create({ name: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const keys = await db().prisma.apiKey.count({ where: { organizationId: org.organizationId, name: "x" } });
      expect(keys).toBe(0);
    });

    it("refuses a mutation without Origin unless the browser says same-origin", async () => {
      const { token } = await tokenFor();
      await expect((await createTestCaller({ token, origin: null })).apiKeys.create({ name: "y" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const res = await mutate("apiKeys.create", { name: "z" }, { cookie: `reprise_session=${token}`, origin: "", "sec-fetch-site": "same-origin" });
      expect(res.status).toBe(200);
    });

    it("refuses form-encoded and multipart bodies before any procedure runs", async () => {
      const { token } = await tokenFor();
      for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]) {
        const res = await call(handleTrpc, {
          path: "/api/trpc/apiKeys.create",
          body: "name=evil",
          headers: { host, origin: TEST_CONSOLE_ORIGIN, "content-type": type, cookie: `reprise_session=${token}` },
        });
        expect(res.status).toBe(415);
      }
    });

    it("lets queries through from anywhere (reads have no side effects; the browser's CORS keeps the answer)", async () => {
      const { token } = await tokenFor();
      const caller = await createTestCaller({ token, origin: "https://evil.example" });
      expect(Array.isArray(await caller.apiKeys.list())).toBe(true);
    });
  });

  async function tokenFor() {
    const res = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { "x-forwarded-for": `198.51.100.${20 + Math.floor(Math.random() * 200)}` });
    return { token: tokenOf(cookieOf(res)) };
  }
});
