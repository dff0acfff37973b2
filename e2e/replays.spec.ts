// Replay journey: a replay seeded through the real REST API (replay/start, the
// replay's spans and completion with its testRunId over externalSpans/externalTraces, replay/complete)
// renders in the console: the run in the list, then original and replay side by side with their outputs and a
// line diff, outlines, token and duration deltas, and the assertion verdict the completion judged.
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedReplay, seedTrace } from "./seed.ts";

const FN = "refund-answer";

test("a replay comparison renders: outlines side by side, deltas, assertion verdicts", async ({ page, api }) => {
  const { traceId: originalId } = await seedTrace(api, {
    traceFunctionKey: FN,
    name: "Can I return shoes?",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 2000, input: ["Can I return shoes?"], output: "Yes, within 30 days." },
      { name: "lookup-policy", parent: FN, startMs: 100, endMs: 600, output: { days: 30 } },
      { name: "llm", parent: FN, type: "llm", startMs: 700, endMs: 1900, output: "Yes, within 30 days.", contexts: [{ model: "gpt-x", inputTokens: 100, outputTokens: 20 }] },
    ],
  });
  const saved = await api.post("/api/sdk/traces/assertions", {
    data: { updates: [{ traceId: originalId, assertions: [{ assertion: "mentions the 30-day window", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "30 days" } }] }] },
  });
  expect(saved.status()).toBe(200);
  const { runId, traceId: replayId } = await seedReplay(api, {
    traceFunctionKey: FN,
    originalTraceId: originalId,
    name: "shorter prompt",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 900, input: ["Can I return shoes?"], output: "Returns are accepted within 30 days." },
      { name: "lookup-policy", parent: FN, startMs: 50, endMs: 300, output: { days: 30 } },
      { name: "llm", parent: FN, type: "llm", startMs: 350, endMs: 850, output: "Returns are accepted within 30 days.", contexts: [{ model: "gpt-x", inputTokens: 60, outputTokens: 10 }] },
    ],
  });

  // replay/complete may answer before the run's evaluation has judged the assertions: wait for the verdict.
  await expect.poll(async () => {
    const labels = (await (await api.get(`/api/sdk/traces/labels?traceIds=${replayId}`)).json()).labels;
    return labels[0]?.assertions?.[0]?.labelStatus;
  }, { timeout: 30_000 }).toBe("labeled");

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Replays" }).click();
  const row = page.getByRole("row", { name: /shorter prompt/ });
  await expect(row.getByText("completed")).toBeVisible();
  await expect(row.getByText("1 of 1")).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "replays");
  await row.getByRole("link", { name: "shorter prompt" }).click();

  await expect(page).toHaveURL(new RegExp(`/replays/${runId}$`));
  await expect(page.getByRole("heading", { name: "shorter prompt" })).toBeVisible();
  const item = page.getByRole("region", { name: "Item 1: Can I return shoes?" });
  const original = item.getByRole("region", { name: "Original" });
  const replay = item.getByRole("region", { name: "Replay" });
  for (const [side, outline] of [[original, "Outline of the original"], [replay, "Outline of the replay"]] as const) {
    const tree = side.getByRole("list", { name: outline });
    for (const name of [FN, "lookup-policy", "llm"]) await expect(tree.getByRole("listitem", { name, exact: true })).toBeVisible();
  }
  // The outputs side by side, the replay's changed lines marked against the original.
  const outputs = item.getByRole("region", { name: "Outputs" });
  await expect(outputs.getByRole("group", { name: "Original output" })).toContainText("Yes, within 30 days.");
  const replayOutput = outputs.getByRole("group", { name: "Replay output" });
  await expect(replayOutput).toContainText("Replay · changed");
  await expect(replayOutput).toContainText("removed: Yes, within 30 days.");
  await expect(replayOutput).toContainText("added: Returns are accepted within 30 days.");
  await expect(original.getByRole("link", { name: `Open trace ${originalId.slice(0, 8)}` })).toBeVisible();
  await expect(replay.getByRole("link", { name: `Open trace ${replayId.slice(0, 8)}` })).toBeVisible();
  // 120 tokens → 70 tokens; 2 s → 0.9 s.
  await expect(replay.getByTitle("tokens down against the original")).toHaveText("−50");
  await expect(replay.getByTitle("duration down against the original")).toHaveText("−1.10 s");
  const verdict = replay.getByRole("list", { name: "Assertion verdicts" }).getByRole("listitem");
  await expect(verdict).toContainText("mentions the 30-day window");
  await expect(verdict).toContainText("pass");
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "replay");
  // On a phone the two sides stack.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(replay).toBeVisible();
  await screenshot(page, "replay-narrow");

  // The replay trace's page links back to its run.
  await page.setViewportSize({ width: 1280, height: 720 });
  await replay.getByRole("link", { name: `Open trace ${replayId.slice(0, 8)}` }).click();
  await page.getByRole("link", { name: `${runId.slice(0, 8)}…` }).click();
  await expect(page).toHaveURL(new RegExp(`/replays/${runId}$`));
});
