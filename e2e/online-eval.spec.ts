// Online evaluation in the console (docs/console.md; docs/graders.md, "Online evaluation"): the grader form
// keeps and edits a grader's sample rate, and a backfill shows its estimate before it starts, then its progress
// to completion. Desktop and phone.
import { checkAtBothSizes, DESKTOP, expect, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "online-eval-answers";

test.describe.configure({ timeout: 180_000 });
// Other journeys share the database and make graders named "no errors" too: this one is named after its function.
const NAME = `no errors ${FN}`;

test("a backfill shows the traces it will grade before it starts, then its progress; the form edits the sample rate", async ({ page, api }) => {
  for (let i = 0; i < 3; i++) {
    await seedTrace(api, { traceFunctionKey: FN, name: `answer ${i}`, spans: [{ name: "answer", output: "fine", startMs: 0, endMs: 50 }] });
  }
  const created = await api.post("/api/sdk/graders", {
    data: { traceFunctionKey: FN, name: NAME, kind: "rule", live: false, config: { check: { op: "noErrors" }, online: { sampleRate: 100, filter: { status: "completed" } } } },
  });
  expect(created.status()).toBe(200);
  const { grader } = await created.json();

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/graders");
  await page.getByRole("button", { name: `Backfill ${NAME}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Backfill ${NAME}`, exact: true });
  const estimate = dialog.getByLabel("Estimate");
  await expect(estimate).toContainText("3 traces to grade at version 1");
  await expect(estimate).toContainText("A rule grader: no model calls, no cost.");
  await checkAtBothSizes(page, "online-eval-estimate");
  await dialog.getByRole("button", { name: "Grade 3 traces" }).click();
  const latest = dialog.getByLabel("Latest backfill");
  await expect(latest).toContainText("3 of 3 traces done", { timeout: 60_000 });
  await expect(latest).toContainText("completed");
  // Once graded at this version, nothing is left to grade.
  await expect(estimate).toContainText("0 traces to grade");
  await dialog.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: `Edit ${NAME}`, exact: true }).click();
  const form = page.getByRole("dialog", { name: `Edit ${NAME}`, exact: true });
  await expect(form.getByLabel("Status")).toHaveValue("completed");
  await form.getByLabel("Sample rate (%)").fill("25");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toBeHidden();
  const list = await (await api.get(`/api/sdk/graders?traceFunctionKey=${FN}`)).json();
  expect(list.graders.find((g: { id: string }) => g.id === grader.id).config.online).toEqual({ sampleRate: 25, filter: { status: "completed" } });
});
