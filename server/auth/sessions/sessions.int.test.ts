// Console sessions: sign-in/out, cookie flags, expiry, rate limiting, CSRF checks.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTestCaller, signedInCaller, TEST_CONSOLE_ORIGIN } from "../../trpc/testing.ts";
import { handleTrpc } from "../../trpc/trpc.http.ts";
import { resetEnvCache } from "../../env.ts";
import { PEER_ADDRESS_HEADER as PEER } from "../../http/client-address.ts";
import { PasswordCheckBudget } from "./password-budget.ts";
import { LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_EMAIL_AND_IP, MAX_FAILURES_PER_IP, SignInLimiter } from "./sign-in-limiter.ts";
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
    const res = await mutate("session.signIn", { email: org.email.toUpperCase(), password: PASSWORD }, { [PEER]: "198.51.100.1" });
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

  it("marks the cookie Secure behind a trusted proxy that says https, and believes no X-Forwarded-* otherwise", async () => {
    const headers = { "x-forwarded-proto": "https", [PEER]: "198.51.100.2" };
    const direct = await mutate("session.signIn", { email: org.email, password: PASSWORD }, headers);
    expect(direct.status).toBe(200);
    expect(cookieOf(direct)).not.toMatch(/Secure/);
    await withTrustedProxy(async () => {
      const proxied = await mutate("session.signIn", { email: org.email, password: PASSWORD }, headers);
      expect(proxied.status).toBe(200);
      expect(cookieOf(proxied)).toMatch(/; Secure/);
    });
  });

  it("does not let X-Forwarded-For reset the limits unless REPRISE_TRUST_PROXY is set", async () => {
    const email = `spoof-${Date.now()}@example.com`;
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      const res = await mutate("session.signIn", { email, password: "wrong-guess" }, { [PEER]: "192.0.2.70", "x-forwarded-for": `10.0.0.${i}` });
      expect(res.status).toBe(401);
    }
    const rotated = await mutate("session.signIn", { email, password: "wrong-guess" }, { [PEER]: "192.0.2.70", "x-forwarded-for": "10.0.0.99" });
    expect(rotated.status).toBe(429);
    await withTrustedProxy(async () => {
      // Behind a trusted proxy the forwarded address is the client: another one is another client.
      const proxied = await mutate("session.signIn", { email, password: "wrong-guess" }, { [PEER]: "192.0.2.70", "x-forwarded-for": "10.0.0.99" });
      expect(proxied.status).toBe(401);
    });
  });

  it("checks the CSRF origin against Host, and against X-Forwarded-Host only behind a trusted proxy", async () => {
    const { token } = await tokenFor();
    const headers = { cookie: `reprise_session=${token}`, origin: "https://evil.example", "x-forwarded-host": "evil.example" };
    expect((await mutate("apiKeys.create", { name: "forwarded-host", scope: "admin" }, headers)).status).toBe(403);
    await withTrustedProxy(async () => {
      expect((await mutate("apiKeys.create", { name: "forwarded-host", scope: "admin" }, headers)).status).toBe(200);
    });
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const wrong = await mutate("session.signIn", { email: org.email, password: "nope-nope" }, { [PEER]: "198.51.100.3" });
    const unknown = await mutate("session.signIn", { email: "nobody@example.com", password: "nope-nope" }, { [PEER]: "198.51.100.3" });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error.json.message).toBe("Wrong email or password.");
      expect(cookieOf(res)).toBe("");
    }
  });

  it("rate-limits failed sign-ins per email and IP, and leaves other IPs alone", async () => {
    const email = org.email;
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL_AND_IP; i++) {
      expect((await mutate("session.signIn", { email, password: "wrong-guess" }, { [PEER]: "192.0.2.50" })).status).toBe(401);
    }
    // Even the right password is refused now from that IP: the lockout is not an oracle.
    const locked = await mutate("session.signIn", { email, password: PASSWORD }, { [PEER]: "192.0.2.50" });
    expect(locked.status).toBe(429);
    expect(locked.body.error.json.data.appCode).toBe("rate_limited");
    const elsewhere = await mutate("session.signIn", { email, password: PASSWORD }, { [PEER]: "192.0.2.51" });
    expect(elsewhere.status).toBe(200);
  });

  it("rejects invalid sign-in input with a 400 listing the field", async () => {
    const res = await mutate("session.signIn", { email: "not-an-email", password: "" });
    expect(res.status).toBe(400);
    expect(res.body.error.json.data.issues.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(["email", "password"]));
  });

  it("signs out: the session row is gone, the cookie is cleared, the token no longer works", async () => {
    const caller = await signedInCaller(db(), org.email);
    const signIn = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { [PEER]: "198.51.100.9" });
    const token = tokenOf(cookieOf(signIn));
    expect(await caller.session.me()).not.toBeNull();
    const out = await mutate("session.signOut", undefined, { cookie: `reprise_session=${token}` });
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toMatch(/reprise_session=;.*Max-Age=0/);
    expect(await db().prisma.consoleSession.count({ where: { tokenHash: hashSessionToken(token) } })).toBe(0);
    expect(await (await createTestCaller({ token })).session.me()).toBeNull();
  });

  it("treats an expired session as signed out", async () => {
    const signIn = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { [PEER]: "198.51.100.10" });
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
      await expect(caller.apiKeys.create({ name: "x", scope: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const keys = await db().prisma.apiKey.count({ where: { organizationId: org.organizationId, name: "x" } });
      expect(keys).toBe(0);
    });

    it("refuses a mutation without Origin unless the browser says same-origin", async () => {
      const { token } = await tokenFor();
      await expect((await createTestCaller({ token, origin: null })).apiKeys.create({ name: "y", scope: "admin" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const res = await mutate("apiKeys.create", { name: "z", scope: "admin" }, { cookie: `reprise_session=${token}`, origin: "", "sec-fetch-site": "same-origin" });
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

  async function withTrustedProxy(fn: () => Promise<void>) {
    process.env.REPRISE_TRUST_PROXY = "true";
    resetEnvCache();
    try {
      await fn();
    } finally {
      delete process.env.REPRISE_TRUST_PROXY;
      resetEnvCache();
    }
  }

  async function tokenFor() {
    const res = await mutate("session.signIn", { email: org.email, password: PASSWORD }, { [PEER]: `198.51.100.${20 + Math.floor(Math.random() * 200)}` });
    return { token: tokenOf(cookieOf(res)) };
  }
});

describe("sign-in limits (docs/api/console.md, Sign-in limits)", () => {
  it("refuses a client after too many failures across emails, without touching other clients", () => {
    const limiter = new SignInLimiter();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      expect(limiter.admit(`random-${i}@example.com`, "192.0.2.1")).toBe(0);
      limiter.recordFailure(`random-${i}@example.com`, "192.0.2.1");
    }
    expect(limiter.admit("another@example.com", "192.0.2.1")).toBeGreaterThan(0);
    expect(limiter.admit("another@example.com", "192.0.2.2")).toBe(0);
  });

  it("keeps a locked account reachable from a client that never failed on it, one attempt per interval", () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter(() => now);
    const email = "ada@example.com";
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) limiter.recordFailure(email, `198.51.100.${i % 200}`);
    // A guessing client stays out; a clean client gets the account's one attempt, the next must wait.
    expect(limiter.admit(email, "198.51.100.1")).toBeGreaterThan(60);
    expect(limiter.admit(email, "203.0.113.9")).toBe(0);
    expect(limiter.admit(email, "203.0.113.10")).toBe(LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS / 1000);
    now += LOCKED_ACCOUNT_ATTEMPT_INTERVAL_MS;
    expect(limiter.admit(email, "203.0.113.10")).toBe(0);
  });

  it("runs at most `concurrency` password checks, queues a few and refuses the rest with 429", async () => {
    const budget = new PasswordCheckBudget(1, 2);
    const releases: Array<() => void> = [];
    let running = 0;
    let peak = 0;
    const check = () =>
      budget.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      });
    const admitted = [check(), check(), check()];
    await expect(check()).rejects.toMatchObject({ code: "rate_limited", retryAfter: 1 });
    while (releases.length > 0 || running > 0) {
      await new Promise((r) => setImmediate(r));
      releases.shift()?.();
    }
    await Promise.all(admitted);
    expect(peak).toBe(1);
  });
});
