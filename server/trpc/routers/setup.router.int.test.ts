// The first run in the browser (docs/operations.md, "First run"): the one-time code, the first organization
// and its owner, the session, and /setup gone once an organization exists.
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../../../test/harness.ts";
import { authenticateApiKey } from "../../auth/auth.service.ts";
import { issueSetupCode } from "../../auth/setup.service.ts";
import { countOrganizations } from "../../auth/auth.queries.ts";
import { createContext } from "../context.ts";
import { createCaller } from "../root.ts";
import { createTestCaller, TEST_CONSOLE_ORIGIN } from "../testing.ts";

/** A signed-out caller whose response headers (Set-Cookie) the test can read. */
async function callerWithHeaders() {
  const resHeaders = new Headers();
  const headers = new Headers({ host: new URL(TEST_CONSOLE_ORIGIN).host, origin: TEST_CONSOLE_ORIGIN });
  return { caller: createCaller(await createContext({ headers, url: `${TEST_CONSOLE_ORIGIN}/api/trpc`, resHeaders })), resHeaders };
}

describe("setup procedures", () => {
  const db = useTestDatabase();
  const form = { organizationName: "Acme", email: "Owner@Example.com", password: "a long password" };

  it("needs setup while there is no organization, and accepts only the current code", async () => {
    const caller = await createTestCaller();
    const code = issueSetupCode();
    expect(await caller.setup.status()).toEqual({ needed: true, codeValid: false });
    expect(await caller.setup.status({ code: "wrong" })).toEqual({ needed: true, codeValid: false });
    expect(await caller.setup.status({ code })).toEqual({ needed: true, codeValid: true });
    await expect(caller.setup.complete({ ...form, code: "wrong" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(caller.setup.complete({ ...form, code: "" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // A bad form gives the code back: the person fixes the field and submits again.
    await expect(caller.setup.complete({ ...form, password: "short", code })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.setup.status({ code })).toMatchObject({ codeValid: true });
    expect(await countOrganizations(db())).toBe(0);
  });

  it("creates one organization from two racing submissions, signs the owner in, and returns a working key", async () => {
    const code = issueSetupCode();
    const [a, b] = [await callerWithHeaders(), await callerWithHeaders()];
    const results = await Promise.allSettled([a.caller.setup.complete({ ...form, code }), b.caller.setup.complete({ ...form, email: "other@example.com", code })]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    expect(await countOrganizations(db())).toBe(1);
    const winner = results[0].status === "fulfilled" ? a : b;
    const { apiKey, organizationId } = (won[0] as PromiseFulfilledResult<{ apiKey: string; organizationId: string }>).value;
    expect((await authenticateApiKey(db(), `Bearer ${apiKey}`)).organizationId).toBe(organizationId);
    const cookie = winner.resHeaders.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^reprise_session=[A-Za-z0-9_-]+;.*HttpOnly/);
    const token = /^reprise_session=([^;]+)/.exec(cookie)![1];
    const signedIn = await createTestCaller({ token });
    expect(await signedIn.session.me()).toMatchObject({ organizationId, organizationName: "Acme" });
  });

  it("is gone once an organization exists: no code is valid and completing again is NOT_FOUND", async () => {
    const caller = await createTestCaller();
    const code = issueSetupCode();
    expect(await caller.setup.status({ code })).toEqual({ needed: false, codeValid: false });
    await expect(caller.setup.complete({ ...form, email: "late@example.com", code })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await countOrganizations(db())).toBe(1);
  });
});
