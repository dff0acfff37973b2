// No decision replaced without a trace: a REST create with a taken grader name is refused with the existing id;
// an explicit edit by id is a new version; the Graders page shows the history with the change as a diff and
// reverts it as one more version. The trace page lists every verdict, who decided it and when, replaced ones
// kept and marked. Desktop and phone.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkAtBothSizes, DESKTOP, E2E, expect, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "history-checkout";
const AGENT_FN = "history-refunds";
const HUMAN = "Fail when the reply promises a refund the policy does not allow.";

// Each journey signs in, drives a dialog and runs axe at two sizes: more than the default minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

/** One tool call through the official MCP client, as an agent's plugin makes it. */
async function agentTool(name: string, args: Record<string, unknown>) {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${E2E.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${E2E.apiKey}` } } }));
  try {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return r.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
  } finally {
    await client.close();
  }
}

test("an agent's save_grader on a person's judge is a version marked as the agent's; the person sees the diff and reverts", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/graders");
  await page.getByRole("button", { name: "New grader" }).click();
  const form = page.getByRole("dialog", { name: "New grader" });
  await form.getByLabel("Name").fill("refund promises");
  await form.getByLabel("Trace function").fill(AGENT_FN);
  await form.getByLabel("Kind").selectOption("llm_judge");
  await form.getByLabel("Instructions").fill(HUMAN);
  await form.getByRole("button", { name: "Create grader" }).click();
  // Without a judge model configured the form warns once before saving.
  const anyway = form.getByRole("button", { name: "Save anyway" });
  if (await anyway.isVisible()) await anyway.click();
  await expect(form).toBeHidden();

  const text = await agentTool("save_grader", { traceFunctionKey: AGENT_FN, name: "refund promises", evaluationFocus: "Updated grader" });
  expect(text).toContain("Updated grader refund promises to version 2, recorded as this agent's change.");
  expect(text).toContain(`The previous version 1 (by ${E2E.email} in the console`);

  await page.reload();
  await page.getByRole("button", { name: "History of refund promises" }).click();
  const history = page.getByRole("dialog", { name: "History of refund promises" });
  const v2 = history.getByRole("listitem", { name: "Version 2" });
  await expect(v2).toContainText("agent");
  await expect(v2).toContainText(`An agent through save_grader (key of ${E2E.email})`);
  const diff = v2.getByRole("group", { name: "Changes in version 2" });
  await expect(diff).toContainText(`- ${HUMAN}`);
  await expect(diff).toContainText("+ Evaluation focus: Updated grader");
  await expect(history.getByRole("listitem", { name: "Version 1" })).toContainText(`${E2E.email} in the console`);
  await history.getByRole("button", { name: "Revert to version 1" }).click();
  await history.getByRole("button", { name: "Confirm revert" }).click();
  await expect(history.getByRole("listitem", { name: "Version 3" })).toContainText("Reverted to version 1: config.instructions edited");
  await history.getByRole("button", { name: "Close" }).click();
  await expect(page.getByText(`“${HUMAN}”`)).toBeVisible();
});

test("a grader's history shows who changed what as a diff, and a revert restores the person's limit", async ({ page, api }) => {
  const rule = { traceFunctionKey: FN, name: "checkout is fast", kind: "rule", config: { check: { op: "maxDurationMs", value: 140 } } };
  const created = await api.post("/api/sdk/graders", { data: rule });
  expect(created.status()).toBe(200);
  const { grader } = await created.json();
  const blind = await api.post("/api/sdk/graders", { data: { ...rule, config: { check: { op: "maxDurationMs", value: 99999 } } } });
  expect(blind.status()).toBe(409);
  expect(await blind.json()).toMatchObject({ code: "conflict", existingId: grader.id });
  const edited = await api.post("/api/sdk/graders", { data: { ...rule, id: grader.id, config: { check: { op: "maxDurationMs", value: 99999 } } } });
  expect(await edited.json()).toMatchObject({ changed: true, grader: { version: 2 } });

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/graders");
  await page.getByRole("button", { name: "History of checkout is fast" }).click();
  const history = page.getByRole("dialog", { name: "History of checkout is fast" });
  const v2 = history.getByRole("listitem", { name: "Version 2" });
  await expect(v2).toContainText("current");
  await expect(v2).toContainText(`${E2E.email} with a REST key`);
  const diff = v2.getByRole("group", { name: "Changes in version 2" });
  await expect(diff).toContainText("config.check.value");
  await expect(diff).toContainText("- 140");
  await expect(diff).toContainText("+ 99999");
  await expect(history.getByRole("listitem", { name: "Version 1" })).toContainText("Created");
  await checkAtBothSizes(page, "grader-history");

  await history.getByRole("button", { name: "Revert to version 1" }).click();
  await history.getByRole("button", { name: "Confirm revert" }).click();
  const v3 = history.getByRole("listitem", { name: "Version 3" });
  await expect(v3).toContainText("current");
  await expect(v3).toContainText(`${E2E.email} in the console`);
  await expect(v3).toContainText("Reverted to version 1: config.check.value: 99999 → 140");
  // The revert is itself a version: version 2 can still be restored.
  await expect(history.getByRole("button", { name: "Revert to version 2" })).toBeVisible();
  const { graders } = await (await api.get(`/api/sdk/graders?traceFunctionKey=${FN}`)).json();
  expect(graders[0]).toMatchObject({ version: 3, config: { check: { value: 140 } } });
  await history.getByRole("button", { name: "Close" }).click();
  await expect(page.getByText(`${FN} · version 3`)).toBeVisible();
});

test("the trace page's verdict history shows who decided what and when, the replaced verdicts marked", async ({ page, api }) => {
  const { traceId } = await seedTrace(api, { traceFunctionKey: FN, name: "checkout of order 77", spans: [{ name: FN, input: ["order 77"], output: "paid", startMs: 0, endMs: 90 }] });
  const agent = await api.post("/api/sdk/traces/labels", { data: { labels: [{ traceId, label: false, annotation: "agent: payment looked slow" }] } });
  expect(agent.status()).toBe(200);

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto(`/traces/${traceId}`);
  const history = page.getByRole("region", { name: "Verdict history" });
  await expect(history.getByRole("listitem")).toHaveCount(1);
  await expect(history.getByRole("listitem").first()).toContainText(`by an agent (key of ${E2E.email})`);

  await page.getByRole("button", { name: "Pass the whole trace" }).click();
  await expect(history.getByRole("listitem")).toHaveCount(2);
  const [current, replaced] = [history.getByRole("listitem").nth(0), history.getByRole("listitem").nth(1)];
  await expect(current).toContainText("pass");
  await expect(current).toContainText(`by ${E2E.email}`);
  await expect(current).toContainText("current");
  await expect(replaced).toContainText("fail");
  await expect(replaced).toContainText("replaced");
  await expect(replaced).toContainText("agent: payment looked slow");
  await checkAtBothSizes(page, "verdict-history");
});
