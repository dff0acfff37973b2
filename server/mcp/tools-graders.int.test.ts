// save_grader on a grader a person wrote in the console: the agent's edit is a new version attributed to the
// agent's tool, the person's version is kept and named in the tool's answer, and it can be restored over REST
// (docs/mcp.md, "save_grader"; docs/graders.md, "History"). Through the official MCP client and the real routes.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { getGraderVersions, postGrader, postGraderRevert } from "../graders/graders.http.ts";
import { ZGraderVersionsResponse } from "../graders/graders.schemas.ts";
import { upsertGraderLabel } from "../labels/grader-labels.queries.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

const KEY = "support-bot";
const SCORED = "support-bot-scored";
const HUMAN = "Fail when the answer promises a refund the policy does not allow. Cite the policy line.";

describe("save_grader on a person's grader", () => {
  const db = useTestDatabase();
  let org: TestOrg;
  let served: ServedRoutes;
  let client: Client;
  beforeAll(async () => {
    org = await createTestOrg(db(), "Acme");
    served = await serveMcp();
    client = await connectClient(served.url, org.apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  const versions = async (id: string) =>
    ZGraderVersionsResponse.parse((await call((req, ctx) => getGraderVersions(req, ctx!), { apiKey: org.apiKey, path: `/api/sdk/graders/${id}/versions`, params: { id } })).body).versions;

  it("keeps the person's version, records the agent's tool as the author of the new one, says so, and reverts", async () => {
    const console = await signedInCaller(db(), org.email);
    const { grader } = await console.graders.create({ traceFunctionKey: KEY, name: "refund policy", kind: "llm_judge", config: { model: "gpt-4o-mini", instructions: HUMAN } });

    const saved = await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "refund policy", evaluationFocus: "Updated grader" });
    expect(saved.isError).toBe(false);
    expect(saved.data).toMatchObject({ created: false, changed: true, previousVersion: 1, grader: { id: grader.id, version: 2 } });
    expect(saved.text).toContain("Updated grader refund policy to version 2, recorded as this agent's change.");
    expect(saved.text).toContain(`The previous version 1 (by ${org.email} in the console,`);
    expect(saved.text).toContain(`POST /api/sdk/graders/${grader.id}/revert {"version": 1}`);

    const [agents, persons] = await versions(grader.id);
    expect(agents).toMatchObject({ version: 2, author: { userId: org.userId, via: "mcp", tool: "save_grader" }, summary: "config.instructions edited" });
    expect(agents.definition.config.instructions).toBe("Evaluation focus: Updated grader");
    expect(persons).toMatchObject({ version: 1, author: { userId: org.userId, name: org.email, via: "console", tool: null }, definition: { config: { instructions: HUMAN } } });

    // Saving the same fields again changes nothing and says so.
    const again = await callTool(client, "save_grader", { traceFunctionKey: KEY, name: "refund policy", evaluationFocus: "Updated grader" });
    expect(again.text).toMatch(/^No change: grader refund policy already reads this way \(version 2\)/);

    const reverted = await call((req, ctx) => postGraderRevert(req, ctx!), { apiKey: org.apiKey, body: { version: 1 }, path: `/api/sdk/graders/${grader.id}/revert`, params: { id: grader.id } });
    expect(reverted.status).toBe(200);
    expect(reverted.body.grader).toMatchObject({ version: 3, config: { instructions: HUMAN } });
    expect((await callTool(client, "list_graders", { traceFunctionKey: KEY })).text).toContain("· version 3");
  });

  it("sets a score range with a threshold or categories with passing ones, validated like REST, and keeps them across edits", async () => {
    const created = await callTool(client, "save_grader", {
      traceFunctionKey: SCORED, name: "helpfulness", evaluationFocus: "How helpful is the answer?", output: { type: "score", min: 1, max: 5, passThreshold: 3 },
    });
    expect(created.isError).toBe(false);
    expect(created.text).toContain("score 1–5, passes at 3 or more");
    const id = created.data.grader.id as string;
    expect(created.data.grader.config.output).toEqual({ type: "score", min: 1, max: 5, passThreshold: 3 });

    // The same checks as POST /api/sdk/graders: a threshold outside the range, an empty range, a passing category
    // not in the set; each refused with the field named, and nothing written.
    for (const [output, field] of [
      [{ type: "score", min: 1, max: 5, passThreshold: 9 }, "output.passThreshold: must lie within [1, 5]"],
      [{ type: "score", min: 5, max: 5 }, "output.max: must be greater than min"],
      [{ type: "category", categories: ["good", "bad"], passingCategories: ["great"] }, "output.passingCategories.0"],
      [{ type: "stars" }, "output"],
    ] as const) {
      const refused = await callTool(client, "save_grader", { graderId: id, output });
      expect(refused.isError, JSON.stringify(output)).toBe(true);
      expect(refused.text).toContain(field);
      expect(refused.data.code).toBe("validation_failed");
    }
    const rest = await call(postGrader, { apiKey: org.apiKey, body: { traceFunctionKey: SCORED, name: "rest twin", kind: "llm_judge", config: { model: "m", instructions: "x", output: { type: "score", min: 1, max: 5, passThreshold: 9 } } } });
    expect(rest.status).toBe(400);
    expect(rest.body.issues).toEqual([expect.objectContaining({ path: "config.output.passThreshold", message: "must lie within [1, 5]" })]);
    expect((await versions(id)).map((v) => v.version)).toEqual([1]);

    // An edit of the text keeps the output; the output as JSON text (some clients stringify) changes it.
    const edited = await callTool(client, "save_grader", { graderId: id, passCriteria: "Answers the question." });
    expect(edited.data.grader.config.output).toEqual({ type: "score", min: 1, max: 5, passThreshold: 3 });
    const categories = await callTool(client, "save_grader", { graderId: id, output: JSON.stringify({ type: "category", categories: ["good", "ok", "bad"], passingCategories: ["good", "ok"] }) });
    expect(categories.isError).toBe(false);
    expect(categories.text).toContain("categories good | ok | bad, passing: good | ok");
    const [latest, previous] = await versions(id);
    expect(latest).toMatchObject({ version: 3, author: { via: "mcp", tool: "save_grader" } });
    expect(latest!.changes.map((c) => c.path)).toEqual(expect.arrayContaining(["config.output.type", "config.output.categories"]));
    expect(previous!.definition.config.output).toEqual({ type: "score", min: 1, max: 5, passThreshold: 3 });
    // A person's score recorded on the category grader is now refused by the same check as REST.
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: SCORED });
    const score = await callTool(client, "save_grader_labels", { labels: [{ traceId: trace.id, graderId: id, score: 4 }] });
    expect(score.isError || score.text.includes("records no score")).toBe(true);
    // null: back to pass/fail only.
    const cleared = await callTool(client, "save_grader", { graderId: id, output: null });
    expect(cleared.data.grader.config.output).toBeUndefined();
  });

  it("get_grader_labels names the grader version that produced each label", async () => {
    const [g] = (await callTool(client, "list_graders", { traceFunctionKey: KEY })).data.graders;
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: trace.id, graderId: g.id, label: true, source: "live_grader" });
    const read = await callTool(client, "get_grader_labels", { traceIds: [trace.id] });
    expect(read.text).toContain(`(${g.id}, active, version 3): PASS`);
    expect(read.data.labels[0].graderVersion).toBe(3);
  });
});
