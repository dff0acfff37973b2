// A database outage on the console's API: tRPC answers 503 with Retry-After as REST does, whether the
// outage hits the session lookup or a procedure; a server starting during an outage waits for the
// database instead of exiting (docs/api/console.md, docs/scaling.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase } from "../../test/harness.ts";
import { openDatabase } from "../db/client.ts";
import { setDb } from "../db.ts";
import { prepareWhenReachable } from "../startup.ts";
import { signIn } from "../auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../auth/sessions/sign-in-limiter.ts";
import { TEST_CONSOLE_ORIGIN } from "./testing.ts";
import { handleTrpc } from "./trpc.http.ts";

const host = new URL(TEST_CONSOLE_ORIGIN).host;

describe("the console API during a database outage", () => {
  const db = useTestDatabase();
  let dead: Awaited<ReturnType<typeof openDatabase>>;
  let token = "";

  beforeAll(async () => {
    const org = await createTestOrg(db());
    token = (await signIn(db(), new SignInLimiter(), { email: org.email, password: "correct horse battery" }, "203.0.113.1")).token;
    // Nothing listens on port 1: connections are refused, as when PostgreSQL is down.
    dead = await openDatabase({ url: "postgresql://postgres@127.0.0.1:1/reprise", maxConnections: 1 });
    setDb(dead);
  });
  afterAll(async () => {
    setDb(db());
    await dead.close().catch(() => undefined);
  });

  it("answers 503 with Retry-After and says the database is unavailable", async () => {
    for (const path of ["session.me", "datasets.list?input=%7B%22json%22%3A%7B%7D%7D"]) {
      const res = await call(handleTrpc, { path: `/api/trpc/${path}`, method: "GET", headers: { host, cookie: `reprise_session=${token}` } });
      expect(res.status, path).toBe(503);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.body.error.json.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", appCode: "service_unavailable" });
      expect(res.body.error.json.message).toMatch(/database is unavailable/);
    }
  });

  it("waits for an unreachable database at start-up and migrates once it answers", async () => {
    const started = Date.now();
    const waits: Error[] = [];
    const waiting = prepareWhenReachable((error) => waits.push(error));
    // The first attempt fails against the dead database; the retry a second later reaches the real one.
    setTimeout(() => setDb(db()), 200);
    await expect(waiting).resolves.toBeUndefined();
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    setDb(dead);
  });
});
