// Roles and key scopes beyond the matrices (test/access-matrix.int.test.ts): who may change a role, the last
// owner, another organization's user, a role change taking effect at once, key expiry and last use, min(scope, role).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { getWhoami } from "../../http/whoami.http.ts";
import { postHumanLabels } from "../../labels/labels.http.ts";
import { createTestCaller, signedInCaller } from "../../trpc/testing.ts";
import { signIn } from "../sessions/sessions.service.ts";
import { SignInLimiter } from "../sessions/sign-in-limiter.ts";
import { runAdminCommand } from "../admin-commands.ts";
import { createApiKeyForUser } from "../auth.service.ts";
import { createUser } from "../settings/settings.service.ts";

describe("roles and scoped keys", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  const password = "correct horse battery";
  const ownerActor = () => ({ organizationId: org.organizationId, userId: org.userId, role: "owner" as const });
  const addUser = async (role: "viewer" | "member" | "admin" | "owner") => {
    const email = `${role}-${randomUUID()}@example.com`;
    const user = await createUser(db(), ownerActor(), { email, password, role });
    return { ...user, email };
  };
  const roleOf = async (userId: string) => (await db().prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { role: true } })).role;

  beforeAll(async () => {
    org = await createTestOrg(db(), "Roles");
    other = await createTestOrg(db(), "Other");
  });

  it("makes the first user of an organization its owner and tells the console what the role may do", async () => {
    const me = await (await signedInCaller(db(), org.email)).session.me();
    expect(me).toMatchObject({ role: "owner", can: { label: true, "manage-owners": true } });
    const viewer = await addUser("viewer");
    const theirs = await (await signedInCaller(db(), viewer.email, password)).session.me();
    expect(theirs).toMatchObject({ role: "viewer", can: { read: true, label: false, curate: false, "manage-keys": false } });
  });

  it("lets an admin set member and viewer, but only an owner make or unmake an owner", async () => {
    const admin = await signedInCaller(db(), (await addUser("admin")).email, password);
    const member = await addUser("member");
    await expect(admin.people.changeRole({ userId: member.id, role: "viewer" })).resolves.toMatchObject({ role: "viewer", previousRole: "member" });
    await expect(admin.people.changeRole({ userId: member.id, role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("owner role") });
    await expect(admin.people.changeRole({ userId: org.userId, role: "member" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(admin.users.create({ email: `o-${randomUUID()}@example.com`, password, role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await roleOf(member.id)).toBe("viewer");
    expect(await roleOf(org.userId)).toBe("owner");
    const owner = await signedInCaller(db(), org.email);
    await expect(owner.people.changeRole({ userId: member.id, role: "owner" })).resolves.toMatchObject({ role: "owner" });
    await expect(owner.people.changeRole({ userId: member.id, role: "member" })).resolves.toMatchObject({ previousRole: "owner" });
  });

  it("keeps the last owner an owner, refuses another organization's user (404) and an unknown role (400), changing nothing", async () => {
    const owner = await signedInCaller(db(), org.email);
    await expect(owner.people.changeRole({ userId: org.userId, role: "admin" })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("last owner") });
    await expect(owner.people.changeRole({ userId: other.userId, role: "viewer" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(owner.people.changeRole({ userId: org.userId, role: "superuser" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await roleOf(org.userId)).toBe("owner");
    expect(await roleOf(other.userId)).toBe("owner");
  });

  it("applies a role change at once: the same session and the same key lose the power with the next call", async () => {
    const member = await addUser("member");
    const key = (await createApiKeyForUser(db(), { organizationId: org.organizationId, userId: member.id }, { scope: "admin" })).apiKey;
    const label = { traceId: randomUUID(), label: true };
    expect((await call(postHumanLabels, { apiKey: key, body: label })).status).not.toBe(403);
    const { token } = await signIn(db(), new SignInLimiter(), { email: member.email, password }, "203.0.113.7");
    await runAdminCommand(db(), "set-role", { email: member.email, role: "viewer" });
    const denied = await call(postHumanLabels, { apiKey: key, body: label });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: "forbidden", requiredRole: "member", role: "viewer", error: expect.stringContaining("labelling traces needs the member role") });
    // Each console request reads the session, and the role with it, afresh.
    const session = await createTestCaller({ token });
    await expect(session.labels.saveHuman({ traceId: label.traceId, label: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("gives a key the lesser of its scope and its user's role, and names the missing scope", async () => {
    const { apiKey } = await createApiKeyForUser(db(), org, { scope: "read" });
    const res = await call(postHumanLabels, { apiKey, body: { traceId: randomUUID(), label: true } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "forbidden", scope: "read", requiredScope: "read-write admin", error: expect.stringContaining("scope read-write or admin") });
  });

  it("creates keys with a scope and an expiry, lists both with the last use, and answers 401 once a key expired", async () => {
    const owner = await signedInCaller(db(), org.email);
    const created = await owner.apiKeys.create({ name: "ci", scope: "read-write", expiresInDays: 30 });
    expect(created.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await call(getWhoami, { apiKey: created.apiKey })).status).toBe(200);
    const row = (await owner.apiKeys.list()).find((k) => k.id === created.id);
    expect(row).toMatchObject({ scope: "read-write", expiresAt: created.expiresAt, lastUsedAt: expect.any(Date) });
    await db().prisma.apiKey.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call(getWhoami, { apiKey: created.apiKey });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: "unauthorized", error: expect.stringContaining("expired") });
    await expect(owner.apiKeys.create({ name: "x", scope: "everything" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("lets the admin CLI create a key of a scope (admin unless told) and set a role", async () => {
    const made = await runAdminCommand(db(), "create-api-key", { email: org.email, scope: "ingest" });
    expect(made).toMatchObject({ scope: "ingest" });
    expect(await db().prisma.apiKey.count({ where: { organizationId: org.organizationId, scope: "ingest" } })).toBeGreaterThan(0);
    await expect(runAdminCommand(db(), "set-role", { email: org.email, role: "boss" })).rejects.toThrow();
    await expect(runAdminCommand(db(), "set-role", { email: other.email, role: "viewer" })).rejects.toMatchObject({ code: "conflict" });
  });
});
