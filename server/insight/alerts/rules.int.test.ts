// Alert rules over REST and tRPC against a real database: the secret answered once, versions with who changed
// them, undo by restoring a version, the audit log, 4xx for bad input, 404 for another organization's rule and
// 403 for roles and key scopes that may not change rules (docs/alerts.md, "Rules").
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../../test/harness.ts";
import { createApiKeyForUser } from "../../auth/auth.service.ts";
import { createUser } from "../../auth/settings/settings.service.ts";
import { findAuditEvents } from "../../auth/audit/audit.service.ts";
import { newId } from "../../ids.ts";
import { signedInCaller } from "../../trpc/testing.ts";
import { callTool, connectClient, serveMcp } from "../../mcp/testing/mcp-client.ts";
import { deleteAlertRuleRoute, getAlertRuleRoute, listAlertRules, patchAlertRule, postAlertRule, restoreAlertRuleRoute } from "./alerts.http.ts";
import { ZAlertDetailResponse, ZAlertListResponse, ZAlertSavedResponse } from "./alerts.schemas.ts";

const RULE = { name: "Answer pass rate", kind: "pass_rate", traceFunctionKey: "answer", threshold: 0.8, windowMinutes: 60, webhookUrl: "https://hooks.example.com/reprise" };

describe("alert rules", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let other: TestOrg;
  let readKey: string;
  let memberEmail: string;

  beforeAll(async () => {
    org = await createTestOrg(db(), "A");
    other = await createTestOrg(db(), "B");
    readKey = (await createApiKeyForUser(db(), org, { scope: "read" })).apiKey;
    memberEmail = `m-${Date.now()}@example.com`;
    await createUser(db(), { organizationId: org.organizationId, userId: org.userId, role: "owner" }, { email: memberEmail, password: "a long password", role: "member" });
  });

  const create = (body: unknown, apiKey = org.apiKey) => call(postAlertRule, { apiKey, body });
  const get = (id: string, apiKey = org.apiKey) => call(getAlertRuleRoute, { apiKey, params: { id } });

  it("creates a rule, answers its secret once, and versions each change with who made it", async () => {
    const created = await create(RULE);
    expect(created.status).toBe(201);
    const { rule, secret } = ZAlertSavedResponse.parse(created.body);
    expect(secret).toMatch(/^whsec_.{20,}/);
    expect(rule).toMatchObject({ version: 1, state: "ok", enabled: true, changedByUserId: org.userId });

    const list = ZAlertListResponse.parse((await call(listAlertRules, { apiKey: readKey })).body);
    expect(list.rules.map((r) => r.id)).toContain(rule.id);
    expect(JSON.stringify(list)).not.toContain(secret!);

    const patched = await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { threshold: 0.7 } });
    expect(patched.status).toBe(200);
    expect(ZAlertSavedResponse.parse(patched.body)).toMatchObject({ rule: { version: 2, threshold: 0.7 }, secret: null });
    // The same values again change nothing.
    expect(ZAlertSavedResponse.parse((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { threshold: 0.7 } })).body).rule.version).toBe(2);

    const rotated = ZAlertSavedResponse.parse((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { rotateSecret: true } })).body);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);

    const d = ZAlertDetailResponse.parse((await get(rule.id, readKey)).body);
    expect(d.versions.map((v) => [v.version, v.summary])).toEqual([[3, "Secret rotated"], [2, "threshold 0.8 → 0.7"], [1, "Created"]]);
    expect(d.versions.every((v) => v.changedByUserId === org.userId && v.changedVia === "rest")).toBe(true);
    expect(JSON.stringify(d)).not.toContain(rotated.secret!);

    const audit = await findAuditEvents(db(), org.organizationId, { kind: "alert.", limit: 50 });
    expect(audit.events.filter((e) => e.target.id === rule.id).map((e) => e.kind)).toEqual(["alert.updated", "alert.updated", "alert.created"]);
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });

  it("deletes a rule as a version, and restoring an earlier version undoes it", async () => {
    const { rule } = ZAlertSavedResponse.parse((await create({ ...RULE, name: "to delete" })).body);
    expect((await call(deleteAlertRuleRoute, { apiKey: org.apiKey, method: "DELETE", params: { id: rule.id } })).status).toBe(200);
    expect((await get(rule.id)).status).toBe(404);
    expect(ZAlertListResponse.parse((await call(listAlertRules, { apiKey: org.apiKey })).body).rules.map((r) => r.id)).not.toContain(rule.id);
    // The deletion's own version cannot be restored; the one before it can.
    expect((await call(restoreAlertRuleRoute, { apiKey: org.apiKey, params: { id: rule.id }, body: { version: 2 } })).status).toBe(404);
    const restored = await call(restoreAlertRuleRoute, { apiKey: org.apiKey, params: { id: rule.id }, body: { version: 1 } });
    expect(restored.status).toBe(200);
    expect(ZAlertSavedResponse.parse(restored.body).rule).toMatchObject({ version: 3, name: "to delete" });
    const audit = await findAuditEvents(db(), org.organizationId, { kind: "alert.", limit: 50 });
    expect(audit.events.filter((e) => e.target.id === rule.id).map((e) => e.kind)).toEqual(["alert.restored", "alert.deleted", "alert.created"]);
  });

  it("answers 400 for bad input and writes nothing", async () => {
    const before = ZAlertListResponse.parse((await call(listAlertRules, { apiKey: org.apiKey })).body).rules.length;
    for (const body of [
      { ...RULE, threshold: 80 },
      { ...RULE, kind: "mean_score" }, // no grader
      { ...RULE, graderId: "0193a3f5-0000-7000-8000-000000000001" }, // a grader on a kind that takes none
      { ...RULE, kind: "error_rate", threshold: -1 },
      { ...RULE, webhookUrl: "ftp://example.com/x" },
      { ...RULE, webhookUrl: "not a url" },
      { ...RULE, windowMinutes: 0 },
      { ...RULE, name: "" },
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    const { rule } = ZAlertSavedResponse.parse((await create({ ...RULE, name: "valid" })).body);
    expect((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: {} })).status).toBe(400);
    expect((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { threshold: 3 } })).status).toBe(400);
    expect((await get("not-a-uuid")).status).toBe(400);
    expect(ZAlertListResponse.parse((await call(listAlertRules, { apiKey: org.apiKey })).body).rules.length).toBe(before + 1);
  });

  it("hides another organization's rule (404) and refuses changes to roles and scopes that may not (403)", async () => {
    const { rule } = ZAlertSavedResponse.parse((await create({ ...RULE, name: "mine" })).body);
    expect((await get(rule.id, other.apiKey)).status).toBe(404);
    expect((await call(patchAlertRule, { apiKey: other.apiKey, method: "PATCH", params: { id: rule.id }, body: { threshold: 0.5 } })).status).toBe(404);
    expect((await call(deleteAlertRuleRoute, { apiKey: other.apiKey, method: "DELETE", params: { id: rule.id } })).status).toBe(404);
    expect((await create(RULE, readKey)).status).toBe(403);
    expect((await call(patchAlertRule, { apiKey: readKey, method: "PATCH", params: { id: rule.id }, body: { threshold: 0.5 } })).status).toBe(403);

    const member = await signedInCaller(db(), memberEmail, "a long password");
    expect((await member.alerts.list()).map((r) => r.id)).toContain(rule.id);
    await expect(member.alerts.create({ ...RULE, kind: "pass_rate" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(member.alerts.delete({ id: rule.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const owner = await signedInCaller(db(), org.email);
    const saved = await owner.alerts.update({ id: rule.id, changes: { enabled: false } });
    expect(saved.rule).toMatchObject({ enabled: false, version: 2 });
    expect((await owner.alerts.get({ id: rule.id })).versions[0]).toMatchObject({ changedVia: "console", summary: "enabled true → false" });
    await expect(owner.alerts.get({ id: (await create(RULE, other.apiKey)).body.rule.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("makes a mean-score rule on a grader that records a score: 400 for a pass/fail grader, 404 for another organization's", async () => {
    const grader = (organizationId: string, name: string, output?: unknown) => db().prisma.grader.create({
      data: { id: newId(), organizationId, traceFunctionKey: "answer", name, kind: "llm_judge", status: "active", config: { model: "m", instructions: "x", ...(output ? { output } : {}) } },
    });
    const scored = await grader(org.organizationId, "helpfulness", { type: "score", min: -5, max: 5, passThreshold: 0 });
    const passFail = await grader(org.organizationId, "no errors");
    const theirs = await grader(other.organizationId, "theirs", { type: "score", min: 0, max: 1 });
    const body = { ...RULE, name: "helpfulness mean", kind: "mean_score", graderId: scored.id, threshold: -1.5 };
    const created = await create(body);
    expect(created.status).toBe(201);
    const { rule } = ZAlertSavedResponse.parse(created.body);
    expect(rule).toMatchObject({ kind: "mean_score", graderId: scored.id, threshold: -1.5 });
    const refused = await create({ ...body, graderId: passFail.id });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([expect.objectContaining({ path: "graderId" })]);
    expect((await create({ ...body, graderId: theirs.id })).status).toBe(404);
    expect((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { graderId: theirs.id } })).status).toBe(404);
    // Changing the kind away from mean_score must drop the grader, in the same change.
    expect((await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { kind: "error_rate", threshold: 0.5 } })).status).toBe(400);
    const changed = await call(patchAlertRule, { apiKey: org.apiKey, method: "PATCH", params: { id: rule.id }, body: { kind: "error_rate", threshold: 0.5, graderId: null } });
    expect(changed.status).toBe(200);
    const d = ZAlertDetailResponse.parse((await get(rule.id)).body);
    expect(d.versions.map((v) => [v.version, v.definition.kind, v.definition.graderId])).toEqual([[2, "error_rate", null], [1, "mean_score", scored.id]]);
    const restored = await call(restoreAlertRuleRoute, { apiKey: org.apiKey, params: { id: rule.id }, body: { version: 1 } });
    expect(ZAlertSavedResponse.parse(restored.body).rule).toMatchObject({ kind: "mean_score", graderId: scored.id, version: 3 });
  });

  it("lists the rules to agents over MCP, without their secrets", async () => {
    const { rule, secret } = ZAlertSavedResponse.parse((await create({ ...RULE, name: "for agents" })).body);
    const served = await serveMcp();
    const client = await connectClient(served.url, readKey);
    try {
      const res = await callTool(client, "list_alerts", {});
      expect(res.text).toContain(`- for agents [${rule.id}]: pass_rate < 0.8 over 60 min for answer; ok`);
      expect(res.text).not.toContain(secret!);
      expect(JSON.stringify(res.data)).not.toContain("whsec_");
    } finally {
      await client.close();
      await served.close();
    }
  });
});
