// The review loop end to end (docs/api/assertions.md, "Review"; docs/mcp.md): an agent proposes three
// assertions on a failing trace over MCP; a person approves two and rejects one in the console's review queue
// with the keyboard (after editing one); a replay judges exactly the two approved ones; the agent reads them
// back, scores the replay per assertion with span evidence, and the experiment page shows the per-assertion
// results with evidence links that open the span on the trace page.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedReplay, seedTrace } from "./seed.ts";

// An agent, a reviewer, a replay and the agent again in one journey: more than the default minute on a busy 2-core machine.
test.describe.configure({ timeout: 180_000 });

const FN = "review-refunds";

async function mcp() {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${E2E.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${E2E.apiKey}` } } }));
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = r.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
    expect(r.isError ?? false, text).toBe(false);
    return { text, data: r.structuredContent as any };
  };
  return { client, tool };
}

test("agent proposes, a person reviews with the keyboard, the replay judges the approved ones, the agent scores them with evidence", async ({ page, api }) => {
  const { traceId: original } = await seedTrace(api, {
    traceFunctionKey: FN,
    name: "Refund for order 1234",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 900, input: ["Can I get a refund?"], output: "Sorry, no refunds." },
      { name: "answer", parent: FN, type: "llm", startMs: 100, endMs: 800, output: "Sorry, no refunds." },
    ],
  });
  const agent = await mcp();
  await agent.tool("save_human_labels", { labels: [{ traceId: original, label: false, annotation: "Refused a refund the policy allows" }] });
  const proposed = await agent.tool("save_trace_assertions", {
    traceId: original,
    assertions: [
      { assertion: "offers a refund", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "refund" } },
      { assertion: "records no errors", check: { op: "noErrors" } },
      { assertion: "answers in French", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "Bonjour" } },
    ],
  });
  const [refund, noErrors, french] = proposed.data.assertions.map((a: { id: string }) => a.id);
  expect((await agent.tool("get_trace_assertions", { traceIds: [original] })).text).toContain("no approved assertions");

  // A person reviews in the console, with the keyboard only.
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" }).click();
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByRole("heading", { name: "Review", level: 1 })).toBeVisible();
  await page.getByLabel("Trace function").selectOption(FN);
  // The filter is in the address: a reload (or a shared link) opens the same queue.
  await expect(page).toHaveURL(new RegExp(`/review\\?fn=${FN}$`));
  await page.reload();
  await expect(page.getByLabel("Trace function")).toHaveValue(FN);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // The queue's own items: the focused card's trace context holds lists of its own (a payload's arrays).
  const pending = page.getByRole("list", { name: "Pending assertions" }).locator(":scope > li");
  await expect(pending).toHaveCount(3);
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "review-queue");
  await page.keyboard.press("e");
  await page.getByLabel("Assertion", { exact: true }).fill("offers the refund the policy allows");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByText("Saved the edit")).toBeVisible();
  await expect(pending.first()).toContainText("offers the refund the policy allows");
  await page.keyboard.press("a");
  await expect(pending).toHaveCount(2);
  await page.keyboard.press("a");
  await expect(pending).toHaveCount(1);
  await expect(pending.first()).toContainText("answers in French");
  await page.keyboard.press("r");
  await expect(page.getByText("Nothing to review")).toBeVisible();

  // Bulk: two proposals on another trace, both selected with X and approved at once with A.
  const { traceId: other } = await seedTrace(api, { traceFunctionKey: `${FN}-bulk`, name: "bulk", spans: [{ name: "root", startMs: 0, endMs: 10, output: "ok" }] });
  await agent.tool("save_trace_assertions", { traceId: other, assertions: [{ assertion: "bulk one" }, { assertion: "bulk two" }] });
  // Opened by its address: the filter shown above already came from a select, and selecting here raced the
  // keys below against the refetch (the unfiltered queue also holds exactly these two).
  await page.goto(`/review?fn=${FN}-bulk`);
  await expect(page.getByLabel("Trace function")).toHaveValue(`${FN}-bulk`);
  await expect(pending).toHaveCount(2);
  await page.keyboard.press("x");
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await expect(page.getByRole("button", { name: "Approve 2 selected (A)" })).toBeVisible();
  await page.keyboard.press("a");
  await expect(page.getByText("Approved 2 assertion(s).")).toBeVisible();
  await expect(page.getByText("Nothing to review")).toBeVisible();

  // The agent reads back exactly the two approved assertions.
  const read = await agent.tool("get_trace_assertions", { traceIds: [original] });
  expect([...read.text.matchAll(/\[ID: ([0-9a-f-]{36})\] checks /g)].map((m) => m[1])).toEqual([refund, noErrors]);
  expect(read.text).not.toContain(french);

  // A replay judges exactly those two.
  const { runId, traceId: replay } = await seedReplay(api, {
    traceFunctionKey: FN,
    originalTraceId: original,
    name: "refund policy fix",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 700, input: ["Can I get a refund?"], output: "Yes: here is your refund." },
      { name: "answer", parent: FN, type: "llm", startMs: 100, endMs: 600, output: "Yes: here is your refund." },
    ],
  });
  await expect.poll(async () => {
    const labels = (await (await api.get(`/api/sdk/traces/labels?traceIds=${replay}`)).json()).labels;
    return (labels[0]?.assertions ?? []).filter((a: { labelSource: string }) => a.labelSource === "judge").map((a: { assertionId: string; label: boolean }) => [a.assertionId, a.label]);
  }, { timeout: 30_000 }).toEqual([[refund, true], [noErrors, true]]);

  // The agent scores the replay per assertion, with span evidence.
  const spans = await agent.tool("get_traces", { traceIds: [replay] });
  const rootSpan = /\[ID: ([0-9a-f-]{36})\] review-refunds/.exec(spans.text)![1]!;
  const scored = await agent.tool("save_agent_labels", {
    experimentId: runId,
    labels: [
      { originalTraceId: original, label: true, annotation: "Offers the refund now" },
      { originalTraceId: original, assertionId: refund, label: true, annotation: "offers it", evidence: [{ spanId: rootSpan, text: "Yes: here is your refund." }] },
      { originalTraceId: original, assertionId: noErrors, label: true, annotation: "clean run" },
    ],
  });
  expect(scored.text).toContain(`[assertion ${refund}]; effective PASS`);
  await agent.client.close();

  // The experiment page shows the per-assertion results and the evidence link opens the span.
  await page.goto(`/replays/${runId}`);
  const results = page.getByRole("region", { name: "Assertion results" }).or(page.getByLabel("Assertion results"));
  await expect(results.getByLabel("Assertion: offers the refund the policy allows")).toContainText("1 passed");
  await expect(results.getByLabel("Assertion: records no errors")).toContainText("1 passed");
  await expect(results).not.toContainText("answers in French");
  await expect(page.getByText("1 fixed")).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "experiment-report");
  await results.getByRole("link", { name: /Evidence: span/ }).first().click();
  await expect(page).toHaveURL(new RegExp(`/traces/${replay}#span-${rootSpan}$`));
  await expect(page.getByText("Yes: here is your refund.").first()).toBeVisible();
  // The evidence is also shown beside the verdict on the trace page.
  await expect(page.getByRole("link", { name: `Evidence: span ${rootSpan.slice(0, 8)}` }).first()).toBeVisible();

  // The experiment joins a group; the group page lists it.
  const again = await mcp();
  const group = await again.tool("save_experiment_group", { experimentIds: [runId], name: "refund fixes", notes: "first try" });
  await again.client.close();
  await page.goto(`/replays/groups/${group.data.group.id}`);
  await expect(page.getByRole("heading", { name: "refund fixes" })).toBeVisible();
  await expect(page.getByRole("link", { name: "refund policy fix" })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
});
