// Sessions: the idle expiry, listing and ending one's own sessions and (admins) another person's; the same through
// the admin CLI.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { getEnv } from "../../env.ts";
import { createTestCaller } from "../../trpc/testing.ts";
import { runAdminCommand } from "../admin-commands.ts";
import { hashPassword } from "../passwords.ts";
import { getSessionUser, signIn } from "./sessions.service.ts";
import { SignInLimiter } from "./sign-in-limiter.ts";

const PASSWORD = "correct horse battery";

describe("session list and idle expiry", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let memberEmail: string;
  let memberId: string;
  const open = async (email: string, userAgent = "test-browser/1.0") =>
    (await signIn(db(), new SignInLimiter(), { email, password: PASSWORD }, "203.0.113.9", undefined, { userAgent })).token;

  beforeAll(async () => {
    org = await createTestOrg(db());
    other = await createTestOrg(db(), "Other");
    memberEmail = `member-${crypto.randomUUID()}@example.com`;
    memberId = crypto.randomUUID();
    await db().prisma.user.create({ data: { id: memberId, organizationId: org.organizationId, email: memberEmail, passwordHash: await hashPassword(PASSWORD), role: "member" } });
  });

  it("ends a session unused for longer than REPRISE_SESSION_IDLE_MINUTES, before its absolute expiry", async () => {
    const token = await open(org.email);
    const idleMs = getEnv().REPRISE_SESSION_IDLE_MINUTES * 60_000;
    const soon = new Date(Date.now() + idleMs - 60_000);
    expect(await getSessionUser(db(), token, soon)).not.toBeNull();
    // That use counts: the idle time runs from it.
    expect(await getSessionUser(db(), token, new Date(soon.getTime() + idleMs - 60_000))).not.toBeNull();
    const late = new Date(soon.getTime() + 2 * idleMs);
    expect(await getSessionUser(db(), token, late)).toBeNull();
    // Ended for good: even "now" no longer finds it.
    expect(await getSessionUser(db(), token)).toBeNull();
  });

  it("lists one's own sessions with the current one marked, and ends one or all the others", async () => {
    const current = await open(memberEmail, "browser-a");
    const second = await open(memberEmail, "browser-b");
    await open(memberEmail, "browser-c");
    const caller = await createTestCaller({ token: current });
    const listed = await caller.session.list();
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current).map((s) => s.userAgent)).toEqual(["browser-a"]);
    const b = listed.find((s) => s.userAgent === "browser-b")!;
    await caller.session.revoke({ id: b.id });
    expect(await getSessionUser(db(), second)).toBeNull();
    expect(await caller.session.revokeAll()).toEqual({ revoked: 1 });
    expect((await caller.session.list()).map((s) => s.userAgent)).toEqual(["browser-a"]);
  });

  it("lets admins list and end another person's sessions; members and other organizations may not", async () => {
    const theirs = await open(memberEmail, "browser-m");
    const owner = await createTestCaller({ token: await open(org.email) });
    expect((await owner.session.list({ userId: memberId })).some((s) => s.userAgent === "browser-m")).toBe(true);

    const member = await createTestCaller({ token: theirs });
    await expect(member.session.list({ userId: org.userId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const foreign = await createTestCaller({ token: await open(other.email) });
    await expect(foreign.session.revokeAll({ userId: memberId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(owner.session.revoke({ id: crypto.randomUUID(), userId: memberId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await getSessionUser(db(), theirs)).not.toBeNull();

    expect((await owner.session.revokeAll({ userId: memberId })).revoked).toBeGreaterThan(0);
    expect(await getSessionUser(db(), theirs)).toBeNull();

    await open(memberEmail, "browser-cli");
    const cliList = (await runAdminCommand(db(), "list-sessions", { as: org.email, email: memberEmail })).sessions as unknown[];
    expect(cliList).toHaveLength(1);
    expect(await runAdminCommand(db(), "end-sessions", { as: org.email, email: memberEmail })).toEqual({ revoked: 1 });
    await expect(runAdminCommand(db(), "end-sessions", { as: other.email, email: memberEmail })).rejects.toThrow(/No user/);
  });
});
