// Scores beyond pass/fail (docs/graders.md, "Scores and categories"): a person records a score on a grader from the
// trace page, sees pass/fail follow from the grader's threshold, reads it back over REST, and undoes it; and records
// scores from the labelling queue and the review queue with the keyboard, through the same form and service.
import { expect, DESKTOP, expectNoCriticalA11yViolations, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "scores-answers";

test.describe.configure({ timeout: 180_000 });

test("a person records a score on a grader from the trace page; the threshold decides pass/fail; undo restores none", async ({ page, api }) => {
  const grader = await api.post("/api/sdk/graders", {
    data: { traceFunctionKey: FN, name: "helpfulness", kind: "llm_judge", live: false, config: { model: "m", instructions: "Rate helpfulness.", output: { type: "score", min: 1, max: 5, passThreshold: 3 } } },
  });
  expect(grader.status()).toBe(200);
  const graderId = (await grader.json()).grader.id as string;
  const { traceId } = await seedTrace(api, { traceFunctionKey: FN, name: "answer 12", spans: [{ name: FN, input: ["q"], output: "a", startMs: 0, endMs: 50 }] });

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto(`/traces/${traceId}`);
  const card = page.getByRole("region", { name: "Grader labels" }).or(page.locator("[aria-label='Grader labels']")).first();
  const row = card.getByRole("listitem").filter({ hasText: "helpfulness" }).first();
  await expect(row).toContainText("Score 1–5, passes at 3");
  await row.getByRole("button", { name: "Record score" }).click();
  await row.getByLabel("Score").fill("4");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("score 4");
  await expect(row).toContainText("pass");
  await expect(row).toContainText("recorded by a person");

  const read = await api.get(`/api/sdk/graderLabels?traceIds=${traceId}`);
  expect((await read.json()).labels).toEqual([expect.objectContaining({ graderId, score: 4, label: true, source: "human" })]);
  const refused = await api.post("/api/sdk/graderLabels", { data: { labels: [{ traceId, graderId, score: 9 }] } });
  expect(refused.status()).toBe(400);

  await row.getByRole("button", { name: "Undo" }).click();
  await expect(row).toContainText("not graded");
  await expect(row).toContainText("1 earlier");
});

test("a person scores a grader from the labelling queue and the review queue with the keyboard; the threshold shows pass/fail; undo and history follow", async ({ page, api }) => {
  const QFN = "scores-queues";
  const grader = await api.post("/api/sdk/graders", {
    data: { traceFunctionKey: QFN, name: "queue helpfulness", kind: "llm_judge", live: false, config: { model: "m", instructions: "Rate it.", output: { type: "score", min: 1, max: 5, passThreshold: 3 } } },
  });
  expect(grader.status()).toBe(200);
  const graderId = (await grader.json()).grader.id as string;
  const tone = await api.post("/api/sdk/graders", {
    data: { traceFunctionKey: QFN, name: "queue tone", kind: "llm_judge", live: false, config: { model: "m", instructions: "Tone?", output: { type: "category", categories: ["polite", "rude"], passingCategories: ["polite"] } } },
  });
  expect(tone.status()).toBe(200);
  const { traceId } = await seedTrace(api, { traceFunctionKey: QFN, name: "queued answer", spans: [{ name: QFN, input: ["q"], output: "a", startMs: 0, endMs: 50 }] });

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  // The labelling queue of this trace function: S opens the first score, the threshold's verdict shows while typing.
  await page.goto(`/traces/queue?fn=${QFN}`);
  const scores = page.getByRole("region", { name: "Grader scores" }).or(page.locator("[aria-label='Grader scores']")).first();
  const row = scores.getByRole("listitem").filter({ hasText: "queue helpfulness" }).first();
  await expect(row).toContainText("Score 1–5, passes at 3");
  await expect(scores.getByRole("listitem").filter({ hasText: "queue tone" })).toContainText("passing: polite");
  await page.locator("body").click();
  await page.keyboard.press("s");
  const field = row.getByLabel("Score");
  await expect(field).toBeFocused();
  await page.keyboard.type("2");
  await expect(row.getByRole("status", { name: "Pass or fail" })).toContainText("fail2 < 3, the grader's threshold");
  await page.keyboard.press("Enter");
  await expect(row).toContainText("score 2");
  await expect(row).toContainText("fail");
  await expect(row).toContainText("recorded by a person");
  let read = await api.get(`/api/sdk/graderLabels?traceIds=${traceId}`);
  expect((await read.json()).labels).toEqual([expect.objectContaining({ graderId, score: 2, label: false, source: "human" })]);
  await expectNoCriticalA11yViolations(page);

  // The review queue: a pending assertion on the same trace; its focused card offers the same scores.
  const pending = await api.post("/api/sdk/traces/assertions", {
    data: { source: "agent", updates: [{ traceId, assertions: [{ assertion: "answers politely", approvalState: "pending" }] }] },
  });
  expect(pending.status()).toBe(200);
  await page.goto(`/review?fn=${QFN}`);
  const card = page.getByRole("listitem").filter({ has: page.getByText("answers politely") }).first();
  const reviewRow = card.getByRole("listitem").filter({ hasText: "queue helpfulness" }).first();
  await expect(reviewRow).toContainText("score 2");
  await page.locator("h1").first().click();
  await page.keyboard.press("s");
  await expect(reviewRow.getByLabel("Score")).toBeFocused();
  await page.keyboard.type("4");
  await expect(reviewRow.getByRole("status", { name: "Pass or fail" })).toContainText("4 ≥ 3");
  await page.keyboard.press("Enter");
  await expect(reviewRow).toContainText("score 4");
  await expect(reviewRow).toContainText("pass");
  await expect(reviewRow).toContainText("1 earlier");
  read = await api.get(`/api/sdk/graderLabels?traceIds=${traceId}`);
  expect((await read.json()).labels).toEqual([expect.objectContaining({ graderId, score: 4, label: true, source: "human" })]);
  // Undo brings back the person's earlier score, from the history.
  await reviewRow.getByRole("button", { name: "Undo" }).click();
  await expect(reviewRow).toContainText("score 2");
});
