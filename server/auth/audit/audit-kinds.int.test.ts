// Every kind of change the audit log records (docs/operations.md, "Audit log"), each through at least one real
// surface (the console's procedures, REST handlers, the official MCP client): who (user, key, tool), what, the
// value before and after; a change that fails leaves no event; secrets never reach it.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import type { ServedRoutes } from "../../../test/http-server.ts";
import { postDataset, postDatasetTraces } from "../../datasets/datasets.http.ts";
import { postGrader } from "../../graders/graders.http.ts";
import { getAuditEvents } from "../../http/audit.http.ts";
import { deleteModelPrice, postModelPrice } from "../../insight/cost/cost.http.ts";
import { newId } from "../../ids.ts";
import { deleteTraceRoute, postDeleteTracesRoute } from "../../lifecycle/deletion/deletion.http.ts";
import { DELETE_CHUNK } from "../../lifecycle/deletion/deletion.service.ts";
import { putPinRoute } from "../../lifecycle/retention/retention.http.ts";
import { callTool, connectClient, serveMcp } from "../../mcp/testing/mcp-client.ts";
import { createTestCaller, signedInCaller } from "../../trpc/testing.ts";
import { ZAuditPage, type TAuditEvent } from "./audit.schemas.ts";

const KEY = "audited-kinds";

describe("audit log: every kind of change", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Audited kinds");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const events = async (kind: string): Promise<TAuditEvent[]> => {
    const filter = kind ? `kind=${encodeURIComponent(kind)}&` : "";
    const res = await call(getAuditEvents, { apiKey: org.apiKey, path: `/api/sdk/audit?${filter}limit=500` });
    expect(res.status).toBe(200);
    return ZAuditPage.parse(res.body).events.reverse();
  };

  it("datasets over REST (created, traces added) and in the console (edited, deleted), naming the key or the user", async () => {
    const created = await call(postDataset, { apiKey: org.apiKey, path: "/api/sdk/datasets", body: { traceFunctionKey: KEY, name: "golden" } });
    expect(created.status).toBe(200);
    const id = (created.body as { dataset: { id: string } }).dataset.id;
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    expect((await call(postDatasetTraces, { apiKey: org.apiKey, path: `/api/sdk/datasets/${id}/traces`, params: { id }, body: { traceIds: [trace.id] } })).status).toBe(200);
    const owner = await signedInCaller(db(), org.email);
    await owner.datasets.save({ traceFunctionKey: KEY, name: "golden", description: "hand-picked" });
    await owner.lifecycle.deleteDataset({ id });

    const log = (await events("dataset.")).filter((e) => e.target.id === id);
    expect(log.map((e) => [e.kind, e.actor.via])).toEqual([["dataset.created", "rest"], ["dataset.traces_added", "rest"], ["dataset.updated", "console"], ["dataset.deleted", "console"]]);
    expect(log[0]!.actor.apiKeyId).not.toBeNull();
    expect(log[1]).toMatchObject({ before: null, after: { traceIds: [trace.id] } });
    expect(log[2]).toMatchObject({ before: { description: null }, after: { description: "hand-picked" }, actor: { userId: org.userId, email: org.email } });
    expect(log[3]).toMatchObject({ before: { name: "golden", traceCount: 1 }, after: null });
  });

  it("assertions in the console (created, approved, edited, reverted) and verdicts over MCP, naming the tool", async () => {
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    const owner = await signedInCaller(db(), org.email);
    const a = await owner.assertions.save({ traceId: trace.id, assertion: { assertion: "greets the customer" } });
    await owner.review.decide({ ids: [a.id], approvalState: "rejected", humanNote: "too vague" });
    await owner.assertions.save({ traceId: trace.id, assertion: { id: a.id, assertion: "greets the customer by name" } });
    await owner.assertions.revert({ assertionId: a.id, version: 1 });
    const labelled = await callTool(client, "save_human_labels", { labels: [{ traceId: trace.id, assertionId: a.id, label: true, annotation: "fine" }] });
    expect(labelled.isError).toBe(false);
    await owner.labels.saveHuman({ traceId: trace.id, assertionId: a.id, label: false, annotation: "not really" });

    const log = (await events("assertion.")).filter((e) => e.target.id === a.id);
    expect(log.map((e) => e.kind)).toEqual(["assertion.created", "assertion.rejected", "assertion.updated", "assertion.reverted"]);
    expect(log[0]).toMatchObject({ before: null, after: { assertion: "greets the customer", approvalState: "approved" }, actor: { via: "console" } });
    expect(log[1]).toMatchObject({ before: { approvalState: "approved", humanNote: null }, after: { approvalState: "rejected", humanNote: "too vague" } });
    expect(log[2]).toMatchObject({ before: { assertion: "greets the customer" }, after: { assertion: "greets the customer by name" } });
    expect(log[3]).toMatchObject({ before: { assertion: "greets the customer by name" }, after: { assertion: "greets the customer", revertedTo: 1 } });

    const verdicts = (await events("label.")).filter((e) => e.target.id === trace.id);
    expect(verdicts.map((e) => [e.kind, e.actor.via, e.actor.tool])).toEqual([["label.human", "mcp", "save_human_labels"], ["label.human", "console", null]]);
    expect(verdicts[0]).toMatchObject({ before: null, after: { assertionId: a.id, label: true, annotation: "fine" } });
    expect(verdicts[1]).toMatchObject({ before: { label: true, labelSource: "human" }, after: { label: false } });
    expect(verdicts[0]!.actor.apiKeyId).not.toBeNull();
  });

  it("retention and redaction in the console, a pin and prices over REST", async () => {
    const owner = await signedInCaller(db(), org.email);
    await owner.lifecycle.setRetention({ retentionDays: 30 });
    await owner.redaction.save({ rules: { builtins: ["emails"], patterns: [], fields: [] } });
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    expect((await call(putPinRoute, { method: "PUT", apiKey: org.apiKey, path: `/api/sdk/traces/${trace.id}/pin`, params: { traceId: trace.id }, body: { pinned: true } })).status).toBe(200);
    const price = await call(postModelPrice, { apiKey: org.apiKey, path: "/api/sdk/model-prices", body: { modelPattern: "house-model", inputPerMtok: 1, outputPerMtok: 2 } });
    expect(price.status).toBe(200);
    const priceId = (price.body as { price: { id: string } }).price.id;
    expect((await call(deleteModelPrice, { method: "DELETE", apiKey: org.apiKey, path: `/api/sdk/model-prices/${priceId}`, params: { id: priceId } })).status).toBeLessThan(300);

    expect(await events("retention.")).toMatchObject([{ kind: "retention.changed", before: { retentionDays: null }, after: { retentionDays: 30 }, actor: { via: "console" } }]);
    expect(await events("redaction.")).toMatchObject([{ kind: "redaction.changed", before: null, after: { version: 1, rules: { builtins: ["emails"] } } }]);
    expect(await events("trace.pinned")).toMatchObject([{ target: { id: trace.id }, before: { pinned: false }, after: { pinned: true }, actor: { via: "rest" } }]);
    const prices = (await events("price.")).filter((e) => e.target.id === priceId);
    expect(prices.map((e) => e.kind)).toEqual(["price.created", "price.deleted"]);
    expect(prices[0]).toMatchObject({ before: null, after: { modelPattern: "house-model", version: 1 } });
    expect(prices[1]).toMatchObject({ before: { modelPattern: "house-model" }, after: null });
  });

  it("trace deletions: one event per trace named by id; ONE event for a delete by session, user or filter, however many chunks it takes", async () => {
    const single = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    expect((await call(deleteTraceRoute, { method: "DELETE", apiKey: org.apiKey, path: `/api/sdk/traces/${single.id}`, params: { traceId: single.id } })).status).toBe(200);
    const named = await Promise.all([1, 2].map(() => createTrace(db(), org.organizationId, { traceFunctionKey: KEY })));
    expect((await call(postDeleteTracesRoute, { apiKey: org.apiKey, path: "/api/sdk/traces/delete", body: { traceIds: named.map((t) => t.id) } })).status).toBe(200);
    // A session of more traces than one transaction deletes.
    const sessionTraces = DELETE_CHUNK + 3;
    await db().prisma.trace.createMany({
      data: Array.from({ length: sessionTraces }, () => {
        const id = newId();
        return { organizationId: org.organizationId, id, sourceTraceId: id, traceFunctionKey: KEY, status: "completed", sessionId: "bulk-session" };
      }),
    });
    const bySession = await call(postDeleteTracesRoute, { apiKey: org.apiKey, path: "/api/sdk/traces/delete", body: { sessionId: "bulk-session" } });
    expect(bySession.body).toMatchObject({ count: sessionTraces });
    await Promise.all([1, 2].map(() => createTrace(db(), org.organizationId, { traceFunctionKey: KEY, metadata: { customer: "cust-9" } })));
    const byUser = await callTool(client, "delete_traces", { userId: "cust-9", metadataKey: "customer" });
    expect(byUser.isError).toBe(false);
    await Promise.all([1, 2, 3].map(() => createTrace(db(), org.organizationId, { traceFunctionKey: KEY, name: "bulk-filter" })));
    const owner = await signedInCaller(db(), org.email);
    const filter = { traceFunctionKey: KEY, search: "bulk-filter", includeReplays: false };
    expect((await owner.lifecycle.deleteTraces({ filter, dryRun: true })).count).toBe(3);
    expect((await owner.lifecycle.deleteTraces({ filter, confirmCount: 3 })).count).toBe(3);
    // A filter that matches nothing deletes nothing and records nothing.
    await call(postDeleteTracesRoute, { apiKey: org.apiKey, path: "/api/sdk/traces/delete", body: { sessionId: "no-such-session" } });

    const log = await events("trace.");
    expect(log.filter((e) => e.kind === "trace.deleted").map((e) => e.target.id).sort()).toEqual([single.id, ...named.map((t) => t.id)].sort());
    expect(log.find((e) => e.target.id === single.id)).toMatchObject({ before: { traceId: single.id }, after: null, actor: { via: "rest" } });
    const bulk = log.filter((e) => e.kind === "trace.bulk_deleted");
    expect(bulk).toMatchObject([
      { target: { type: "organization", id: org.organizationId }, before: { by: "session", sessionId: "bulk-session", count: sessionTraces }, after: null, actor: { via: "rest", userId: org.userId } },
      { before: { by: "user", userId: "cust-9", metadataKey: "customer", count: 2 }, actor: { via: "mcp", tool: "delete_traces" } },
      { before: { by: "filter", filter: { traceFunctionKey: KEY, search: "bulk-filter", excludeReplays: true }, count: 3 }, actor: { via: "console", userId: org.userId, email: org.email } },
    ]);
    expect(bulk[0]!.actor.apiKeyId).not.toBeNull();
    expect(bulk.every((e) => !("interrupted" in (e.before as object)))).toBe(true);
  });

  it("a deletion and its restore over MCP, naming each tool", async () => {
    const made = await call(postGrader, { apiKey: org.apiKey, path: "/api/sdk/graders", body: { traceFunctionKey: KEY, name: "short", kind: "rule", config: { check: { op: "noErrors" } } } });
    expect(made.status).toBe(200);
    const graderId = (made.body as { grader: { id: string } }).grader.id;
    const deleted = await callTool(client, "delete_grader", { graderId });
    expect(deleted.isError).toBe(false);
    const { tombstoneId: id } = (await events("grader.deleted")).at(-1)!.after as { tombstoneId: string };
    expect((await callTool(client, "restore_deleted", { id })).isError).toBe(false);

    const log = (await events("grader.")).filter((e) => e.target.id === graderId);
    expect(log.map((e) => [e.kind, e.actor.via, e.actor.tool])).toEqual([
      ["grader.created", "rest", null], ["grader.deleted", "mcp", "delete_grader"], ["grader.restored", "mcp", "restore_deleted"],
    ]);
    expect(log[1]).toMatchObject({ after: { tombstoneId: id } });
    expect(log[2]).toMatchObject({ before: { tombstoneId: id } });
  });

  it("people and SSO in the console, never their secrets; accepting an invitation is the new user's own act", async () => {
    const owner = await signedInCaller(db(), org.email);
    const { invitation, path } = await owner.people.invite({ email: "new.hire@example.com", role: "member" });
    const token = path.split("/").at(-1)!;
    const accepted = await (await createTestCaller()).invitation.accept({ token, password: "a long new password", name: "New Hire" });
    const second = await owner.people.invite({ email: "never@example.com", role: "viewer" });
    await owner.people.revokeInvitation({ id: second.invitation.id });
    await owner.people.createPasswordReset({ userId: accepted.userId });
    await owner.people.remove({ userId: accepted.userId });
    await owner.people.restore({ userId: accepted.userId });
    await owner.people.changePassword({ currentPassword: "correct horse battery", newPassword: "correct horse battery staple" });
    await owner.sso.set({ issuer: "https://id.example.com", clientId: "reprise", clientSecret: "very-secret-value" });

    const people = [...(await events("invitation.")), ...(await events("user.")), ...(await events("sso."))];
    expect(people.map((e) => e.kind)).toEqual(expect.arrayContaining([
      "invitation.created", "invitation.accepted", "invitation.revoked", "user.password_reset_issued", "user.removed", "user.restored", "user.password_changed", "sso.changed",
    ]));
    expect(people.find((e) => e.target.id === invitation.id)).toMatchObject({ kind: "invitation.created", after: { email: "new.hire@example.com", role: "member" } });
    expect(people.find((e) => e.kind === "invitation.accepted")).toMatchObject({ actor: { userId: accepted.userId }, after: { email: "new.hire@example.com" } });
    expect(people.find((e) => e.kind === "user.removed")).toMatchObject({ before: { removed: false }, after: { removed: true }, actor: { userId: org.userId } });
    expect(people.find((e) => e.kind === "sso.changed")).toMatchObject({ before: null, after: { issuer: "https://id.example.com", clientSecretChanged: true } });
    const text = JSON.stringify(people);
    for (const secret of [token, "very-secret-value", "correct horse battery staple", "a long new password"]) expect(text).not.toContain(secret);
  });

  it("a change that fails records nothing: a refused membership change, a conflicting price, a restore of an unknown item", async () => {
    const before = (await events("")).length;
    // The people test changed the owner's password.
    const owner = await signedInCaller(db(), org.email, "correct horse battery staple");
    const clash = { modelPattern: "twin-model", inputPerMtok: 1, outputPerMtok: 1, effectiveFrom: "2026-01-01" };
    expect((await call(postModelPrice, { apiKey: org.apiKey, path: "/api/sdk/model-prices", body: clash })).status).toBe(200);
    const after = (await events("")).length;
    expect(after).toBe(before + 1);
    await expect(owner.insight.savePrice(clash)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(owner.datasets.addTraces({ id: "00000000-0000-4000-8000-000000000000", traceIds: ["00000000-0000-4000-8000-000000000001"] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(owner.lifecycle.restore({ id: "00000000-0000-4000-8000-000000000002" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await events("")).length).toBe(after);
  });
});
