// Scores beyond pass/fail (docs/graders.md, "Scores and categories"): a person records a score on a grader from the
// trace page, sees pass/fail follow from the grader's threshold, reads it back over REST, and undoes it.
import { expect, DESKTOP, signIn, test } from "./fixtures.ts";
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
