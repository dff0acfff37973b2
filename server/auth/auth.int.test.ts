// API-key authentication (docs/api.md, "Common rules").
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import { getWhoami } from "../http/whoami.http.ts";
import { hashApiKey } from "./api-key.ts";
import { createApiKeyForEmail, ensureInitialOrganization } from "./auth.service.ts";

describe("API keys", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
  });

  it("resolves a valid key to its organization and user", async () => {
    const res = await call(getWhoami, { apiKey: org.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organizationId: org.organizationId, userId: org.userId });
    const row = await db().prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(org.apiKey) } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it.each([
    ["missing", {}],
    ["empty", { authorization: "" }],
    ["empty bearer", { authorization: "Bearer " }],
    ["not bearer", { authorization: "Basic abc" }],
    ["malformed", { authorization: "Bearer nope" }],
    ["unknown", { authorization: `Bearer rp_${"a".repeat(43)}` }],
  ])("answers 401 for a %s key", async (_name, headers) => {
    const res = await call(getWhoami, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthorized", error: expect.any(String) });
  });

  it("answers 401 for a revoked key", async () => {
    const { apiKey, id } = await createApiKeyForEmail(db(), org.email, { name: "to revoke", scope: "admin" });
    expect((await call(getWhoami, { apiKey })).status).toBe(200);
    await db().prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    expect((await call(getWhoami, { apiKey })).status).toBe(401);
  });

  it("never stores the key itself", async () => {
    const rows = await db().prisma.apiKey.findMany({ where: { organizationId: org.organizationId } });
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(org.apiKey);
  });

  it("creates the first organization from the REPRISE_INIT_* settings once", async () => {
    // This database already has an organization, so the first run must leave it alone.
    const settings = { orgName: "Init", email: "init@example.com", password: "longenough", apiKey: `rp_${"b".repeat(40)}` };
    expect(await ensureInitialOrganization(db(), settings)).toBe("exists");
    expect(await ensureInitialOrganization(db(), { orgName: "x" })).toBe("not-configured");
  });
});
