// The audit log (docs/operations.md, "Audit log"): a grader edited in the console, over REST and over MCP (the
// official client) each leaves who, before and after; keys, roles and the sim plan too; a refused change leaves
// nothing; GET /api/sdk/audit filters and pages, admins only, one organization only.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import type { ServedRoutes } from "../../../test/http-server.ts";
import { postGrader } from "../../graders/graders.http.ts";
import { getAuditEvents } from "../../http/audit.http.ts";
import { callTool, connectClient, serveMcp } from "../../mcp/testing/mcp-client.ts";
import { postSimPlanRoute } from "../../sim-plan/sim-plan.http.ts";
import { signedInCaller } from "../../trpc/testing.ts";
import { runAdminCommand } from "../admin-commands.ts";
import { createApiKeyForUser } from "../auth.service.ts";
import { createUser } from "../settings/settings.service.ts";
import { ZAuditPage, type TAuditEvent } from "./audit.schemas.ts";

const KEY = "audited-bot";

describe("audit log", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Audited");
    other = await createTestOrg(db(), "Elsewhere");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const audit = async (query = "", apiKey = org.apiKey) => {
    const res = await call(getAuditEvents, { apiKey, path: `/api/sdk/audit?${query}` });
    return { status: res.status, body: res.status === 200 ? ZAuditPage.parse(res.body) : res.body };
  };
  const events = async (query: string) => (await audit(query)).body.events as TAuditEvent[];

  it("records a grader edited in the console, over REST and over MCP, with who and the value before and after", async () => {
    const owner = await signedInCaller(db(), org.email);
    const instructions = "Fail when the answer promises a refund.";
    const { grader } = await owner.graders.create({ traceFunctionKey: KEY, name: "refunds", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions } });
    await owner.graders.save({ id: grader.id, traceFunctionKey: KEY, name: "refunds", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: `${instructions} Cite the policy.` } });
    const rest = await call(postGrader, { apiKey: org.apiKey, path: "/api/sdk/graders", body: { id: grader.id, traceFunctionKey: KEY, name: "refunds", kind: "llm_judge", config: { model: "gpt-4o", instructions } } });
    expect(rest.status).toBe(200);
    expect((await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "refunds", evaluationFocus: "Refund promises" })).isError).toBe(false);

    const log = (await events("kind=grader.")).filter((e) => e.target.id === grader.id).reverse();
    expect(log.map((e) => [e.kind, e.actor.via, e.actor.tool])).toEqual([
      ["grader.created", "console", null],
      ["grader.updated", "console", null],
      ["grader.updated", "rest", null],
      ["grader.updated", "mcp", "save_grader"],
    ]);
    expect(log[0]).toMatchObject({ before: null, after: { version: 1, config: { instructions } }, actor: { userId: org.userId, email: org.email, apiKeyId: null } });
    expect(log[2]).toMatchObject({ before: { version: 2, config: { model: "gpt-4o-mini" } }, after: { version: 3, config: { model: "gpt-4o" } } });
    expect(log[2].actor.apiKeyId).toEqual(expect.any(String));
    expect(log[3]).toMatchObject({ before: { version: 3 }, after: { version: 4, config: { instructions: "Evaluation focus: Refund promises" } } });
  });

  it("records keys, users and roles changed in the console, and the sim plan changed over REST", async () => {
    const owner = await signedInCaller(db(), org.email);
    const key = await owner.apiKeys.create({ name: "app", scope: "ingest" });
    await owner.apiKeys.revoke({ id: key.id });
    const user = await owner.users.create({ email: `someone-${Date.now()}@example.com`, password: "a long password", role: "viewer" });
    await owner.people.changeRole({ userId: user.id, role: "member" });
    const plan = await call(postSimPlanRoute, { apiKey: org.apiKey, path: "/api/sdk/sim-plan", body: { decisions: [{ traceFunctionKey: KEY, name: "llm-call", captureContent: false }] } });
    expect(plan.status).toBe(200);

    const byKind = new Map((await events("")).map((e) => [`${e.kind} ${e.target.id}`, e]));
    expect(byKind.get(`api-key.created ${key.id}`)).toMatchObject({ before: null, after: { name: "app", scope: "ingest" }, actor: { via: "console", userId: org.userId } });
    expect(byKind.get(`api-key.revoked ${key.id}`)).toMatchObject({ before: { revokedAt: null }, after: { revokedAt: expect.any(String) } });
    expect(byKind.get(`user.created ${user.id}`)).toMatchObject({ after: { role: "viewer" } });
    expect(byKind.get(`user.role-changed ${user.id}`)).toMatchObject({ before: { role: "viewer" }, after: { role: "member" } });
    expect(byKind.get(`sim-plan.decided ${KEY}/llm-call`)).toMatchObject({ before: null, after: { captureContent: false }, actor: { via: "rest" } });
  });

  it("records nothing for a refused change, and shows one organization's log to its admins only", async () => {
    const owner = await signedInCaller(db(), org.email);
    const before = (await events("limit=500")).length;
    await expect(owner.people.changeRole({ userId: org.userId, role: "viewer" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await events("limit=500")).length).toBe(before);

    const member = await createUser(db(), { organizationId: org.organizationId, userId: org.userId, role: "owner" }, { email: `m-${Date.now()}@example.com`, password: "a long password", role: "member" });
    const memberKey = (await createApiKeyForUser(db(), { organizationId: org.organizationId, userId: member.id }, { scope: "admin" })).apiKey;
    expect((await audit("", memberKey)).status).toBe(403);
    await expect((await signedInCaller(db(), member.email, "a long password")).audit.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await owner.audit.list({ kind: "user." })).events.every((e) => e.kind.startsWith("user."))).toBe(true);
    const theirs = await audit("", other.apiKey);
    expect(theirs.status).toBe(200);
    expect(JSON.stringify(theirs.body)).not.toContain(org.userId);
  });

  it("pages newest first with a cursor, filters by actor and time, and refuses a bad filter with 400", async () => {
    const first = await audit("limit=2");
    const page = first.body as { events: TAuditEvent[]; nextCursor: string };
    expect(page.events).toHaveLength(2);
    const next = await audit(`limit=2&cursor=${page.nextCursor}`);
    const seen = [...page.events, ...(next.body as { events: TAuditEvent[] }).events].map((e) => e.id);
    expect(new Set(seen).size).toBe(4);
    expect(Date.parse(page.events[0].at)).toBeGreaterThanOrEqual(Date.parse(page.events[1].at));
    expect((await events(`actorUserId=${org.userId}&via=rest`)).every((e) => e.actor.via === "rest" && e.actor.userId === org.userId)).toBe(true);
    expect(await events(`to=${encodeURIComponent("2000-01-01T00:00:00Z")}`)).toEqual([]);
    expect((await audit("via=telepathy")).status).toBe(400);
    const exported = await runAdminCommand(db(), "export-audit", { organization: org.organizationId, kind: "grader.", limit: "3" });
    expect(ZAuditPage.parse(exported).events.map((e) => e.kind.startsWith("grader."))).toEqual([true, true, true]);
    await expect(runAdminCommand(db(), "export-audit", { organization: "nope" })).rejects.toThrow();
    expect((await audit("cursor=nonsense")).status).toBe(400);
  });
});
