import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestDatabase } from "../../test/harness.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { setDb } from "../db.ts";
import { getWhoami } from "../http/whoami.http.ts";
import { getHealth } from "./health.http.ts";

describe("health and database outages", () => {
  let db: Database;
  let unreachable: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
    // Nothing listens on port 1: every query fails to connect, like a database that is down.
    unreachable = await openDatabase({ url: "postgresql://postgres@127.0.0.1:1/reprise" });
  });
  afterAll(async () => {
    setDb(undefined);
    await unreachable.close().catch(() => undefined);
    await db.close();
  });

  it("answers {status: ok} once the database is reachable", async () => {
    setDb(db);
    const res = await call(getHealth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers 503 when the database is unreachable", async () => {
    setDb(unreachable);
    const res = await call(getHealth);
    expect(res.status).toBe(503);
    expect(res.body.status).toBe("unavailable");
  });

  it("answers API calls with 503 and Retry-After, not 500, while the database is unreachable", async () => {
    setDb(unreachable);
    const res = await call(getWhoami, { apiKey: `rp_${"c".repeat(43)}` });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.body).toEqual({ error: expect.stringContaining("retry later"), code: "service_unavailable" });
  });
});
