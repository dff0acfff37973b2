// Every class of "the database is not there right now" is an outage on every surface: a database that refuses
// connections (`ALLOW_CONNECTIONS false`, SQLSTATE 55000) and one whose connections are terminated
// (57P01) answer 503 with Retry-After on REST, ingestion, OTLP, tRPC and MCP, never 500; once the database is
// back the same requests succeed without a restart (docs/api.md, "Common rules"). PostgreSQL only: the
// embedded database cannot refuse its own process.
import pg from "pg";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listDatasets } from "../server/datasets/datasets.http.ts";
import { postExternalSpan } from "../server/ingest/ingest.http.ts";
import { postOtlpTraces } from "../server/ingest/otlp/otlp.http.ts";
import { spanPayload } from "../server/ingest/testing/payloads.ts";
import { sql } from "../server/db/sql.ts";
import { handleTrpc } from "../server/trpc/trpc.http.ts";
import { TEST_CONSOLE_ORIGIN } from "../server/trpc/testing.ts";
import { postMcp } from "../server/mcp/mcp.http.ts";
import { signIn } from "../server/auth/sessions/sessions.service.ts";
import { SignInLimiter } from "../server/auth/sessions/sign-in-limiter.ts";
import { call, createTestOrg, onPostgres, testDatabaseUrl, useTestDatabase, type TestOrg } from "./harness.ts";

describe.runIf(onPostgres)("a database outage on every surface", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let token = "";
  let admin: pg.Client;
  let name = "";

  beforeAll(async () => {
    org = await createTestOrg(db());
    token = (await signIn(db(), new SignInLimiter(), { email: org.email, password: "correct horse battery" }, "203.0.113.1")).token;
    name = new URL(db().location).pathname.slice(1);
    admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
  });

  const terminate = () => admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [name]);

  /** One request per surface; each returns its status, Retry-After and error code. */
  const surfaces: Record<string, () => Promise<{ status: number; retryAfter: string | null; code: unknown }>> = {
    "REST GET /api/sdk/datasets": async () => {
      const r = await call(listDatasets, { path: "/api/sdk/datasets", apiKey: org.apiKey });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.code };
    },
    "ingestion POST /api/sdk/externalSpans": async () => {
      const r = await call(postExternalSpan, { path: "/api/sdk/externalSpans", apiKey: org.apiKey, body: spanPayload({ traceId: randomUUID() }) });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.code };
    },
    "OTLP POST /api/sdk/otel/v1/traces": async () => {
      const r = await call(postOtlpTraces, { path: "/api/sdk/otel/v1/traces", apiKey: org.apiKey, body: { resourceSpans: [] } });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.code };
    },
    "tRPC session.me": async () => {
      const r = await call(handleTrpc, { path: "/api/trpc/session.me", headers: { host: new URL(TEST_CONSOLE_ORIGIN).host, cookie: `reprise_session=${token}` } });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.error?.json?.data?.appCode };
    },
    "MCP tools/call": async () => {
      const r = await call(postMcp, {
        path: "/mcp",
        apiKey: org.apiKey,
        headers: { accept: "application/json, text/event-stream" },
        body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_api_key_context", arguments: {} } },
      });
      return { status: r.status, retryAfter: r.headers.get("retry-after"), code: r.body.code ?? (r.body.result?.isError ? r.body.result.structuredContent?.code : undefined) };
    },
  };

  async function expectEverySurface(expected: "outage" | "up") {
    for (const [surface, request] of Object.entries(surfaces)) {
      const answer = await request();
      if (expected === "up") expect(answer.status, `${surface}: ${JSON.stringify(answer)}`).toBeLessThan(300);
      else expect(answer, surface).toMatchObject({ status: 503, code: "service_unavailable", retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
    }
  }

  it("answers 503 with Retry-After while the database refuses connections (55000), and recovers without a restart", async () => {
    await expectEverySurface("up");
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await terminate();
      await expectEverySurface("outage");
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    await expectEverySurface("up");
  });

  it("answers 503 with Retry-After when the connections are terminated mid-use (57P01), and recovers", async () => {
    // Keep every pooled connection busy while it is terminated, so requests meet the terminated connection itself.
    const sleeping = Array.from({ length: 3 }, () => db().sql.query(sql`SELECT pg_sleep(5)`).then(() => "finished", (error: unknown) => error));
    await new Promise((r) => setTimeout(r, 300));
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await terminate();
      for (const outcome of await Promise.all(sleeping)) expect(outcome).not.toBe("finished");
      await expectEverySurface("outage");
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    await expectEverySurface("up");
  });
});
