// What a reviewer sees and decides (docs/console.md, "Assertions" and "Review"): the Assertions page shows one
// review state at a time, approved by default, with a state on every row; a review card shows the check a
// replay will run, with the trace's input and output beside it; E edits that check, the edit is what is stored,
// it can be undone (the history keeps each version), and after approval a replay is judged by the edited check.
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedReplay, seedTrace } from "./seed.ts";

async function saveAssertions(api: import("@playwright/test").APIRequestContext, traceId: string, assertions: object[]) {
  const res = await api.post("/api/sdk/traces/assertions", { data: { source: "agent", updates: [{ traceId, assertions }] } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).assertions as { id: string }[]).map((a) => a.id);
}

test("the Assertions page lists approved assertions by default, each state on demand, with a state on each row", async ({ page, api }) => {
  const FN = "assertion-states";
  const { traceId } = await seedTrace(api, { traceFunctionKey: FN, name: "States", spans: [{ name: FN, startMs: 0, endMs: 100, output: "ok" }] });
  await saveAssertions(api, traceId, [
    { assertion: "judged on every replay", approvalState: "approved" },
    { assertion: "turned down by a reviewer", approvalState: "rejected" },
    { assertion: "awaiting a reviewer", approvalState: "pending" },
  ]);

  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`/assertions?fn=${FN}`);
  const state = page.getByRole("combobox", { name: "State", exact: true });
  const group = page.getByRole("region", { name: `Assertions of ${FN}` });
  const rows = group.getByRole("listitem");
  await expect(state).toHaveValue("approved");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAccessibleName("Assertion: judged on every replay");
  await expect(rows.first()).toContainText("Approved");
  await expect(group).toContainText("1 approved shown");
  await expect(page.getByText("turned down by a reviewer")).toHaveCount(0);
  await expect(state.locator("option:checked")).toHaveText("Approved (1)");

  await state.selectOption("rejected");
  await expect(page).toHaveURL(new RegExp(`/assertions\\?fn=${FN}&state=rejected$`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAccessibleName("Assertion: turned down by a reviewer");
  await expect(rows.first()).toContainText("Rejected");
  await expect(page.getByText("judged on every replay")).toHaveCount(0);

  await state.selectOption("all");
  await expect(rows).toHaveCount(3);
  await expect(group.getByRole("listitem", { name: "Assertion: judged on every replay" })).toContainText("Approved");
  await expect(group.getByRole("listitem", { name: "Assertion: turned down by a reviewer" })).toContainText("Rejected");
  await expect(group.getByRole("listitem", { name: "Assertion: awaiting a reviewer" })).toContainText("Pending review");
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "assertions-states");
});

test("a review card shows the check with the trace's context; E edits the check, which is stored, undoable, and what a replay runs", async ({ page, api }) => {
  const FN = "review-check";
  const { traceId } = await seedTrace(api, {
    traceFunctionKey: FN,
    name: "Refund for order 77",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 900, input: ["Can I get a refund for order 77?"], output: "Sorry, no refunds." },
      { name: "answer", parent: FN, type: "llm", startMs: 100, endMs: 800, output: "Sorry, no refunds." },
    ],
  });
  const [id] = await saveAssertions(api, traceId, [{ assertion: "greets the customer in French", targetOnEvaluatedTrace: { kind: "output" }, check: { op: "contains", value: "refund" }, approvalState: "pending" }]);
  test.setTimeout(240_000);
  const stored = async () => {
    const res = await api.get(`/api/sdk/traces/${traceId}/assertions?includeUnapproved=true`);
    return ((await res.json()).assertions as { id: string; check: unknown; approvalState: string }[]).find((a) => a.id === id)!;
  };

  await signIn(page);
  await page.goto(`/review?fn=${FN}`);
  const judged = page.getByRole("group", { name: "What will be judged" });
  await expect(judged).toContainText("Final output");
  await expect(judged).toContainText("Output contains text: refund");
  // The trace's context beside it: its input and output, and what the check says on it now.
  const context = page.getByRole("region", { name: "Trace context" });
  await expect(context).toContainText("Can I get a refund for order 77?");
  await expect(context).toContainText("Sorry, no refunds.");
  await expect(context.getByRole("status", { name: "On this trace" })).toContainText("passes");
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "review-card-check");

  // E edits the check itself.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("e");
  const form = page.getByRole("group", { name: "Edit the assertion" });
  await expect(form.getByLabel("Check")).toHaveValue("contains");
  await expect(form.getByLabel("Value")).toHaveValue("refund");
  await form.getByLabel("Value").fill("Bonjour");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByText("Saved the edit")).toBeVisible();
  await expect(judged).toContainText("Output contains text: Bonjour");
  await expect(context.getByRole("status", { name: "On this trace" })).toContainText("fails");
  await expect.poll(async () => (await stored()).check).toEqual({ op: "contains", value: "Bonjour" });
  expect((await stored()).approvalState).toBe("pending");

  // The edit is undoable: the check it replaced comes back.
  await page.getByRole("button", { name: "Undo the edit" }).click();
  await expect(page.getByText("Undid the edit")).toBeVisible();
  await expect(judged).toContainText("Output contains text: refund");
  await expect.poll(async () => (await stored()).check).toEqual({ op: "contains", value: "refund" });

  // Edited again and approved: the replay is judged by the edited check (the old one would pass this output).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("e");
  await form.getByLabel("Value").fill("Bonjour");
  await page.keyboard.press("Control+Enter");
  await expect(judged).toContainText("Output contains text: Bonjour");
  await page.keyboard.press("a");
  await expect(page.getByText("Approved 1 assertion(s).")).toBeVisible();
  await expect.poll(async () => (await stored()).approvalState).toBe("approved");

  // The Assertions page keeps every version, with who replaced it.
  await page.goto(`/assertions?fn=${FN}`);
  await page.getByRole("button", { name: "History of assertion: greets the customer in French" }).click();
  const history = page.getByRole("dialog", { name: "Assertion history" });
  await expect(history.getByRole("listitem", { name: "Version 4 (current)" })).toContainText("Output contains text: Bonjour");
  await expect(history.getByRole("listitem", { name: "Version 1" })).toContainText("Output contains text: refund");
  await expect(history.getByRole("listitem", { name: "Version 1" })).toContainText(`replaced ${E2E.email} in the console`);
  await expect(history.getByRole("button", { name: "Restore version 1" })).toBeVisible();
  await history.getByRole("button", { name: "Close" }).click();

  const { traceId: replay } = await seedReplay(api, {
    traceFunctionKey: FN,
    originalTraceId: traceId,
    name: "refund policy fix",
    spans: [
      { name: FN, type: "agent", startMs: 0, endMs: 700, input: ["Can I get a refund for order 77?"], output: "Yes: here is your refund." },
      { name: "answer", parent: FN, type: "llm", startMs: 100, endMs: 600, output: "Yes: here is your refund." },
    ],
  });
  await expect.poll(async () => {
    const labels = (await (await api.get(`/api/sdk/traces/labels?traceIds=${replay}`)).json()).labels;
    return (labels[0]?.assertions ?? []).filter((a: { labelSource: string }) => a.labelSource === "judge").map((a: { assertionId: string; label: boolean }) => [a.assertionId, a.label]);
  }, { timeout: 30_000 }).toEqual([[id, false]]);
});
