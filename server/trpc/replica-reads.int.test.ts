// The console's read replica (docs/scaling.md, "4. A read replica for the console"), against a real streaming
// standby: a PostgreSQL primary and a pg_basebackup copy of it replaying its log, on ports of their own
// (scripts/replica-pair.mjs). With the standby's replay paused, the console's trace list does not show a trace
// the SDK just wrote (it reads the replica) while the SDK's own read does (the primary); after a console write,
// that browser reads the primary until the replica caught up; with the standby stopped, reads fall back to the
// primary and nothing errors. Runs on the PostgreSQL run, where the machine has PostgreSQL's server programs.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, onCitus, onPostgres, type TestOrg } from "../../test/harness.ts";
// @ts-expect-error: a plain JavaScript module of the test scripts
import { postgresServerInstalled, startReplicaPair } from "../../scripts/replica-pair.mjs";
import { openDatabase, type Database } from "../db/client.ts";
import { migrate } from "../db/migrator.ts";
import { openReadReplica, primaryWalPosition, type TReadReplica } from "../db/read-replica.ts";
import { setDb, setReadReplica } from "../db.ts";
import { sql } from "../db/sql.ts";
import { signIn } from "../auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../auth/sessions/sign-in-limiter.ts";
import { SESSION_COOKIE } from "../auth/sessions/cookies.ts";
import { postExternalSpan } from "../ingest/ingest.http.ts";
import { getTraceRoute } from "../traces/traces.http.ts";
import { spanPayload } from "../ingest/testing/payloads.ts";
import { createContext } from "./context.ts";
import { createCaller } from "./root.ts";
import { TEST_CONSOLE_ORIGIN } from "./testing.ts";

const runs = onPostgres && !onCitus && postgresServerInstalled();

describe.runIf(runs)("the console's read replica", () => {
  let pair: { primaryUrl: () => string; standbyUrl: () => string; stopStandby: () => void; stop: () => void };
  let primary: Database;
  let replica: TReadReplica;
  let standbyAdmin: Database;
  let org: TestOrg;
  let session: string;

  beforeAll(async () => {
    pair = startReplicaPair({ primary: 9781, standby: 9782 });
    primary = await openDatabase({ url: pair.primaryUrl() });
    await migrate(primary.sql);
    setDb(primary);
    replica = await openReadReplica(pair.standbyUrl());
    setReadReplica(replica);
    standbyAdmin = await openDatabase({ url: pair.standbyUrl(), maxConnections: 1 });
    org = await createTestOrg(primary);
    ({ token: session } = await signIn(primary, new SignInLimiter(), { email: org.email, password: "correct horse battery" }, "203.0.113.7"));
  }, 120_000);
  afterAll(async () => {
    setReadReplica(undefined);
    setDb(undefined);
    await standbyAdmin?.close().catch(() => undefined);
    await replica?.close().catch(() => undefined);
    await primary?.close();
    pair?.stop();
  });

  async function browser(cookies: string[] = []) {
    const headers = new Headers({ host: new URL(TEST_CONSOLE_ORIGIN).host, origin: TEST_CONSOLE_ORIGIN, cookie: [`${SESSION_COOKIE}=${session}`, ...cookies].join("; ") });
    const resHeaders = new Headers();
    const ctx = await createContext({ headers, url: `${TEST_CONSOLE_ORIGIN}/api/trpc`, resHeaders });
    return { caller: createCaller(ctx), resHeaders };
  }

  async function ingest(): Promise<string> {
    const traceId = randomUUID();
    expect((await call(postExternalSpan, { apiKey: org.apiKey, body: spanPayload({ traceId }) })).status).toBe(200);
    return traceId;
  }

  async function listed(cookies: string[] = []): Promise<string[]> {
    return (await (await browser(cookies)).caller.traces.list({})).traces.map((t) => t.id);
  }

  /** Waits until the standby replayed everything the primary wrote so far. */
  async function caughtUp() {
    const position = (await primaryWalPosition(primary))!;
    for (let i = 0; i < 200 && !(await replica.hasReplayed(position)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await replica.hasReplayed(position)).toBe(true);
  }

  it("reads the console's lists from the replica, the SDK's reads from the primary, and a browser's own writes at once", async () => {
    const first = await ingest();
    await caughtUp();
    expect(await listed()).toContain(first);

    await standbyAdmin.sql.query(sql`SELECT pg_wal_replay_pause()`);
    try {
      const second = await ingest();
      // The SDK reads the primary: its own write is there at once.
      expect((await call(getTraceRoute, { apiKey: org.apiKey, params: { traceId: second } })).status).toBe(200);
      // The console's list reads the paused replica: not there yet.
      const fromReplica = await listed();
      expect(fromReplica).toContain(first);
      expect(fromReplica).not.toContain(second);

      // A console write leaves this browser a cookie: its reads go to the primary until the replica shows it.
      const writer = await browser();
      const { id: datasetId } = (await writer.caller.datasets.create({ traceFunctionKey: "answer-question", name: "from the console" })) as { id: string };
      const cookie = writer.resHeaders.get("set-cookie")!;
      expect(cookie).toMatch(/^reprise_written=[0-9A-F]+\/[0-9A-F]+; Path=\/; HttpOnly; SameSite=Lax/);
      const written = cookie.split(";")[0];
      expect(await listed([written])).toContain(second);
      expect((await (await browser([written])).caller.datasets.list({})).datasets.map((d: { id: string }) => d.id)).toContain(datasetId);
      // Another browser, without the cookie, still reads the replica.
      expect(await listed()).not.toContain(second);
    } finally {
      await standbyAdmin.sql.query(sql`SELECT pg_wal_replay_resume()`);
    }
    await caughtUp();
    expect(await listed()).toHaveLength(2);
  });

  it("falls back to the primary when the replica goes away, without an error", async () => {
    await standbyAdmin.close();
    pair.stopStandby();
    const third = await ingest();
    expect(await listed()).toContain(third);
    expect(replica.available()).toBe(false);
    // Meanwhile reads go straight to the primary.
    expect(await listed()).toContain(third);
  });
});
