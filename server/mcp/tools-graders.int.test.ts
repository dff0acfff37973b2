// save_grader on a grader a person wrote in the console: the agent's edit is a new version attributed to the
// agent's tool, the person's version is kept and named in the tool's answer, and it can be restored over REST
// (docs/mcp.md, "save_grader"; docs/graders.md, "History"). Through the official MCP client and the real routes.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTrace } from "../../test/factories.ts";
import { call, createTestOrg, useTestDatabase, type TestOrg } from "../../test/harness.ts";
import type { ServedRoutes } from "../../test/http-server.ts";
import { getGraderVersions, postGraderRevert } from "../graders/graders.http.ts";
import { ZGraderVersionsResponse } from "../graders/graders.schemas.ts";
import { upsertGraderLabel } from "../labels/grader-labels.queries.ts";
import { signedInCaller } from "../trpc/testing.ts";
import { callTool, connectClient, serveMcp } from "./testing/mcp-client.ts";

const KEY = "support-bot";
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

  it("get_grader_labels names the grader version that produced each label", async () => {
    const [g] = (await callTool(client, "list_graders", { traceFunctionKey: KEY })).data.graders;
    const trace = await createTrace(db(), org.organizationId, { traceFunctionKey: KEY });
    await upsertGraderLabel(db(), { organizationId: org.organizationId, traceId: trace.id, graderId: g.id, label: true, source: "live_grader" });
    const read = await callTool(client, "get_grader_labels", { traceIds: [trace.id] });
    expect(read.text).toContain(`(${g.id}, active, version 3): PASS`);
    expect(read.data.labels[0].graderVersion).toBe(3);
  });
});
