// Settings procedures: API keys and users, scoped to the signed-in user's organization.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { getWhoami } from "../../http/whoami.http.ts";
import { signedInCaller } from "../../trpc/testing.ts";

describe("settings procedures", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let caller: Awaited<ReturnType<typeof signedInCaller>>;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Ours");
    other = await createTestOrg(db(), "Theirs");
    caller = await signedInCaller(db(), org.email);
  });

  it("creates a key that is shown once, works on the API, and is listed by prefix only", async () => {
    const created = await caller.apiKeys.create({ name: "ci", scope: "admin" });
    expect(created.apiKey).toMatch(/^rp_/);
    expect((await call(getWhoami, { apiKey: created.apiKey })).body).toEqual({ organizationId: org.organizationId, userId: org.userId });
    const list = await caller.apiKeys.list();
    const row = list.find((k) => k.id === created.id);
    expect(row).toMatchObject({ name: "ci", ownerEmail: org.email, revokedAt: null });
    expect(created.apiKey.startsWith(row!.prefix.slice(0, 7))).toBe(true);
    expect(JSON.stringify(list)).not.toContain(created.apiKey);
  });

  it("lists only the organization's own keys and users", async () => {
    const keys = await caller.apiKeys.list();
    const ownIds = (await db().prisma.apiKey.findMany({ where: { organizationId: org.organizationId }, select: { id: true } })).map((k) => k.id);
    expect(keys.map((k) => k.id).sort()).toEqual(ownIds.sort());
    const users = await caller.users.list();
    expect(users.map((u) => u.email)).not.toContain(other.email);
  });

  it("revokes a key: the API answers 401 afterwards, and revoking again is harmless", async () => {
    const { id, apiKey } = await caller.apiKeys.create({ name: "short-lived", scope: "admin" });
    await caller.apiKeys.revoke({ id });
    expect((await call(getWhoami, { apiKey })).status).toBe(401);
    await expect(caller.apiKeys.revoke({ id })).resolves.toMatchObject({ id, revoked: true });
    expect((await caller.apiKeys.list()).find((k) => k.id === id)?.revokedAt).toBeInstanceOf(Date);
  });

  it("answers NOT_FOUND for another organization's key and leaves it working", async () => {
    const theirs = await db().prisma.apiKey.findFirstOrThrow({ where: { organizationId: other.organizationId } });
    await expect(caller.apiKeys.revoke({ id: theirs.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await call(getWhoami, { apiKey: other.apiKey })).status).toBe(200);
  });

  it("adds a user to the organization who can then sign in", async () => {
    const email = `new-${Date.now()}@example.com`;
    const user = await caller.users.create({ email, name: "New Person", password: "a long password" });
    expect(user).toMatchObject({ email, name: "New Person" });
    const theirCaller = await signedInCaller(db(), email, "a long password");
    expect(await theirCaller.session.me()).toMatchObject({ email, organizationId: org.organizationId });
  });

  it("refuses a taken email (CONFLICT) and a short password (BAD_REQUEST) without writing", async () => {
    await expect(caller.users.create({ email: other.email, password: "a long password" })).rejects.toMatchObject({ code: "CONFLICT" });
    const before = await db().prisma.user.count();
    await expect(caller.users.create({ email: "short@example.com", password: "short" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await db().prisma.user.count()).toBe(before);
  });
});
