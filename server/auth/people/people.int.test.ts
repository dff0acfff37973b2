// People: invitations by link, removal, one's own password, reset links, the last owner; over REST, tRPC and the
// admin CLI, against a real database. Bad input changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createTestCaller, signedInCaller } from "../../trpc/testing.ts";
import { signIn } from "../sessions/sessions.service.ts";
import { SignInLimiter } from "../sessions/sign-in-limiter.ts";
import * as rest from "../../http/people.http.ts";
import { getWhoami } from "../../http/whoami.http.ts";
import { runAdminCommand } from "../admin-commands.ts";
import { hashLinkToken } from "./link-tokens.ts";
import { createApiKeyForEmail } from "../auth.service.ts";

const PASSWORD = "correct horse battery";
const tokenOf = (url: string) => url.split("/").pop()!;

/** A session token; `me(token)` reads it afresh on every call (a caller's context is resolved once). */
async function sessionToken(db: Parameters<typeof signIn>[0], email: string, password = PASSWORD) {
  return (await signIn(db, new SignInLimiter(), { email, password }, "203.0.113.7")).token;
}
const me = async (token: string) => (await createTestCaller({ token })).session.me();

describe("people", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other org");
  });

  /** Invites over REST as the owner and accepts through the public invitation page's procedures. */
  async function inviteAndAccept(role: string, email = `p-${crypto.randomUUID()}@example.com`) {
    const res = await call(rest.postInvitation, { apiKey: org.apiKey, path: "/api/sdk/invitations", body: { email, role } });
    expect(res.status).toBe(200);
    const token = tokenOf(res.body.url);
    const accepted = await (await createTestCaller()).invitation.accept({ token, password: PASSWORD, name: "New person" });
    return { email, token, userId: accepted.userId, invitationId: res.body.invitation.id as string };
  }

  it("invites by a single-use link stored hashed; accepting creates the user in the inviter's organization with the role", async () => {
    const email = `invitee-${crypto.randomUUID()}@example.com`;
    const res = await call(rest.postInvitation, { apiKey: org.apiKey, path: "/api/sdk/invitations", body: { email, role: "admin" } });
    expect(res.status).toBe(200);
    expect(res.body.invitation).toMatchObject({ email, role: "admin", status: "pending" });
    const token = tokenOf(res.body.url);
    const row = await db().prisma.invitation.findFirstOrThrow({ where: { id: res.body.invitation.id } });
    expect(row.tokenHash).toBe(hashLinkToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await call(rest.listInvitations, { apiKey: org.apiKey });
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const anonymous = await createTestCaller();
    expect(await anonymous.invitation.get({ token })).toMatchObject({ email, role: "admin", organizationName: "Test org" });
    const accepted = await anonymous.invitation.accept({ token, password: PASSWORD });
    expect(accepted.organizationId).toBe(org.organizationId);
    const user = await db().prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ organizationId: org.organizationId, role: "admin" });
    await expect(anonymous.invitation.accept({ token, password: PASSWORD })).rejects.toMatchObject({ code: "CONFLICT" });
    const me = await (await signedInCaller(db(), email)).session.me();
    expect(me?.organizationId).toBe(org.organizationId);
  });

  it("refuses an expired or revoked invitation, an unknown role and a member inviting, changing nothing", async () => {
    const expired = await call(rest.postInvitation, { apiKey: org.apiKey, body: { email: `exp-${crypto.randomUUID()}@example.com` } });
    await db().prisma.invitation.updateMany({ where: { id: expired.body.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const anonymous = await createTestCaller();
    await expect(anonymous.invitation.accept({ token: tokenOf(expired.body.url), password: PASSWORD })).rejects.toThrow(/expired/);

    const revoked = await call(rest.postInvitation, { apiKey: org.apiKey, body: { email: `rev-${crypto.randomUUID()}@example.com` } });
    const revoke = await call(rest.postRevokeInvitation, { apiKey: org.apiKey, params: { id: revoked.body.invitation.id }, body: {} });
    expect(revoke.status).toBe(200);
    expect(revoke.body.invitation.status).toBe("revoked");
    await expect(anonymous.invitation.accept({ token: tokenOf(revoked.body.url), password: PASSWORD })).rejects.toThrow(/revoked/);
    const foreignRevoke = await call(rest.postRevokeInvitation, { apiKey: other.apiKey, params: { id: expired.body.invitation.id }, body: {} });
    expect(foreignRevoke.status).toBe(404);

    const before = await db().prisma.invitation.count();
    const badRole = await call(rest.postInvitation, { apiKey: org.apiKey, body: { email: "x@example.com", role: "superuser" } });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toMatchObject({ code: "validation_failed" });
    expect(await db().prisma.invitation.count()).toBe(before);
    expect(await db().prisma.user.count({ where: { email: { in: [expired.body.invitation.email, revoked.body.invitation.email] } } })).toBe(0);

    const member = await inviteAndAccept("member");
    const memberCaller = await signedInCaller(db(), member.email);
    await expect(memberCaller.people.invite({ email: "y@example.com", role: "member" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(memberCaller.users.create({ email: "y@example.com", password: PASSWORD })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const admin = await inviteAndAccept("admin");
    await expect((await signedInCaller(db(), admin.email)).people.invite({ email: "z@example.com", role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await db().prisma.invitation.count()).toBe(before + 2);
  });

  it("removing a user ends their console sessions and API keys at once; another organization's user is a 404; restore undoes it", async () => {
    const person = await inviteAndAccept("member");
    const token = await sessionToken(db(), person.email);
    expect(await me(token)).not.toBeNull();
    // A member's own key (keys are made by admins: docs/operations.md, "Roles and API key scopes").
    const key = await createApiKeyForEmail(db(), person.email, { name: "theirs", scope: "read-write" });
    expect((await call(getWhoami, { apiKey: key.apiKey })).status).toBe(200);

    const foreign = await call(rest.postRemoveUser, { apiKey: other.apiKey, params: { id: person.userId }, body: {} });
    expect(foreign.status).toBe(404);
    expect(await me(token)).not.toBeNull();

    const removed = await call(rest.postRemoveUser, { apiKey: org.apiKey, params: { id: person.userId }, body: {} });
    expect(removed.status).toBe(200);
    expect(removed.body.user.removedAt).toBeTruthy();
    expect(await me(token)).toBeNull();
    expect((await call(getWhoami, { apiKey: key.apiKey })).status).toBe(401);
    await expect(signedInCaller(db(), person.email)).rejects.toMatchObject({ code: "unauthorized" });

    const restored = await call(rest.postRestoreUser, { apiKey: org.apiKey, params: { id: person.userId }, body: {} });
    expect(restored.body.user.removedAt).toBeNull();
    expect(await (await signedInCaller(db(), person.email)).session.me()).not.toBeNull();
  });

  it("never removes or demotes the last owner", async () => {
    const lone = await createTestOrg(db(), "Lone");
    const self = await call(rest.postRemoveUser, { apiKey: lone.apiKey, params: { id: lone.userId }, body: {} });
    expect(self.status).toBe(409);
    expect(self.body.error).toMatch(/last owner/);
    const demote = await call(rest.postUserRole, { apiKey: lone.apiKey, params: { id: lone.userId }, body: { role: "admin" } });
    expect(demote.status).toBe(409);
    const unknownRole = await call(rest.postUserRole, { apiKey: lone.apiKey, params: { id: lone.userId }, body: { role: "boss" } });
    expect(unknownRole.status).toBe(400);
    expect(await db().prisma.user.findUniqueOrThrow({ where: { id: lone.userId } })).toMatchObject({ role: "owner", removedAt: null });
  });

  it("changes one's own password with the current one, ending the other sessions but this one", async () => {
    const person = await inviteAndAccept("member");
    const firstToken = await sessionToken(db(), person.email);
    const first = await createTestCaller({ token: firstToken });
    const secondToken = await sessionToken(db(), person.email);
    await expect(first.people.changePassword({ currentPassword: "wrong password", newPassword: "a brand new one" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await me(secondToken)).not.toBeNull();
    const changed = await first.people.changePassword({ currentPassword: PASSWORD, newPassword: "a brand new one" });
    expect(changed.endedSessions).toBe(1);
    expect(await me(firstToken)).not.toBeNull();
    expect(await me(secondToken)).toBeNull();
    await expect(signedInCaller(db(), person.email)).rejects.toMatchObject({ code: "unauthorized" });
    expect(await (await signedInCaller(db(), person.email, "a brand new one")).session.me()).not.toBeNull();
  });

  it("over REST: lists the organization's users, changes the key user's own password, refuses another organization's ids", async () => {
    const listed = await call(rest.listUsers, { apiKey: org.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.users.map((u: { email: string }) => u.email)).toContain(org.email);
    expect(listed.body.users.map((u: { email: string }) => u.email)).not.toContain(other.email);

    const person = await inviteAndAccept("member");
    const key = await createApiKeyForEmail(db(), person.email, { name: "cli", scope: "read-write" });
    const wrong = await call(rest.postAccountPassword, { apiKey: key.apiKey, body: { currentPassword: "nope", newPassword: "another long one" } });
    expect(wrong.status).toBe(403);
    const short = await call(rest.postAccountPassword, { apiKey: key.apiKey, body: { currentPassword: PASSWORD, newPassword: "short" } });
    expect(short.status).toBe(400);
    const changed = await call(rest.postAccountPassword, { apiKey: key.apiKey, body: { currentPassword: PASSWORD, newPassword: "another long one" } });
    expect(changed.status).toBe(200);
    expect(await me(await sessionToken(db(), person.email, "another long one"))).not.toBeNull();

    const foreignRole = await call(rest.postUserRole, { apiKey: other.apiKey, params: { id: person.userId }, body: { role: "viewer" } });
    expect(foreignRole.status).toBe(404);
    const memberInvites = await call(rest.postInvitation, { apiKey: key.apiKey, body: { email: "q@example.com" } });
    expect(memberInvites.status).toBe(403);
    expect(memberInvites.body.code).toBe("forbidden");
    expect((await db().prisma.user.findUniqueOrThrow({ where: { id: person.userId } })).role).toBe("member");
  });

  it("an admin's one-time reset link sets another's password once and ends their sessions", async () => {
    const person = await inviteAndAccept("member");
    const theirs = await sessionToken(db(), person.email);
    const link = await call(rest.postUserPasswordReset, { apiKey: org.apiKey, params: { id: person.userId }, body: {} });
    expect(link.status).toBe(200);
    const token = tokenOf(link.body.url);
    const anonymous = await createTestCaller();
    expect(await anonymous.passwordReset.get({ token })).toMatchObject({ email: person.email });
    await anonymous.passwordReset.use({ token, password: "reset by link" });
    expect(await me(theirs)).toBeNull();
    await expect(anonymous.passwordReset.use({ token, password: "again and again" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await (await signedInCaller(db(), person.email, "reset by link")).session.me()).not.toBeNull();
    const foreign = await call(rest.postUserPasswordReset, { apiKey: other.apiKey, params: { id: person.userId }, body: {} });
    expect(foreign.status).toBe(404);
  });

  it("runs the same flows from the admin CLI, acting as a named owner", async () => {
    const email = `cli-${crypto.randomUUID()}@example.com`;
    const invited = await runAdminCommand(db(), "invite-user", { as: org.email, email, role: "viewer" });
    expect(invited).toMatchObject({ invitation: { email, role: "viewer" }, path: expect.stringMatching(/^\/invite\//) });
    await (await createTestCaller()).invitation.accept({ token: tokenOf(invited.path as string), password: PASSWORD });
    expect(await runAdminCommand(db(), "set-role", { email, role: "member" })).toMatchObject({ email, role: "member", previousRole: "viewer" });
    expect(await runAdminCommand(db(), "reset-password-link", { as: org.email, email })).toMatchObject({ path: expect.stringMatching(/^\/reset-password\//) });
    await expect(runAdminCommand(db(), "remove-user", { as: other.email, email })).rejects.toThrow(/No user with email/);
    expect(await runAdminCommand(db(), "remove-user", { as: org.email, email })).toMatchObject({ user: { email } });
    await expect(runAdminCommand(db(), "set-role", { email, role: "boss" })).rejects.toThrow();
    const users = (await runAdminCommand(db(), "list-users", { as: org.email })).users as { email: string; removedAt: Date | null }[];
    expect(users.find((u) => u.email === email)?.removedAt).toBeTruthy();
  });
});
