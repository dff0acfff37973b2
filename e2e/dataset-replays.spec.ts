// Replays and re-runs from a dataset page (docs/console.md "Replays"): the page shows the exact SDK call
// with the dataset id and a replay name, and follows that replay once the runner starts it (here the runner's
// own REST calls stand in for the SDK); a finished grader re-run and its per-trace results stay after a
// reload. Desktop and phone, axe on the page.
import type { APIRequestContext } from "@playwright/test";
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "dataset-replay-journey";

async function post(api: APIRequestContext, path: string, data: unknown) {
  const res = await api.post(path, { data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

test("a dataset's replay is followed from the SDK call it shows; its finished re-run stays with per-trace results", async ({ page, api }) => {
  const { traceId } = await seedTrace(api, { traceFunctionKey: FN, name: "Dataset member", spans: [{ name: FN, startMs: 0, endMs: 100, input: ["q"], output: "a" }] });
  const { dataset } = await post(api, "/api/sdk/datasets", { traceFunctionKey: FN, name: "Replay me" });
  await post(api, `/api/sdk/datasets/${dataset.id}/traces`, { traceIds: [traceId] });
  const { grader } = await post(api, "/api/sdk/graders", { traceFunctionKey: FN, name: "no errors here", kind: "rule", config: { check: { op: "noErrors" } } });
  await post(api, `/api/sdk/datasets/${dataset.id}/graders`, { graderIds: [grader.id] });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`/datasets/${dataset.id}`);
  const card = page.getByRole("region", { name: "Replay this dataset" });
  const code = await card.locator("pre").innerText();
  expect(code).toContain(`datasetIds: ["${dataset.id}"]`);
  expect(code).toContain(`reprise.replay("${FN}"`);
  const name = /name: "(console-[a-z0-9]+)"/.exec(code)![1]!;
  await expect(card.getByTestId("replay-follow")).toContainText(`Waiting for replay ${name} to start`);
  await expectNoCriticalA11yViolations(page);

  // What the SDK's replay runner sends first: the page picks the run up by its name and follows it.
  const start = await post(api, "/api/sdk/replay/start", { traceFunctionKey: FN, datasetIds: [dataset.id], name });
  await expect(card.getByTestId("replay-follow")).toContainText(`Replay ${name} running · 0 of 1 replayed`, { timeout: 20_000 });
  await post(api, "/api/sdk/replay/complete", { testRunId: start.testRunId, experimentId: start.testRunId });
  await expect(card.getByTestId("replay-follow")).toContainText("completed", { timeout: 20_000 });
  await expect(card.getByRole("link", { name })).toHaveAttribute("href", `/replays/${start.testRunId}`);

  const rerun = page.getByRole("region", { name: "Grader re-run" });
  await rerun.getByRole("button", { name: "Re-run graders" }).click();
  await expect(rerun.getByText(/Status: completed/)).toBeVisible({ timeout: 45_000 });
  await page.reload();
  await expect(rerun.getByText(/Status: completed — 1 traces graded by 1 graders/)).toBeVisible();
  const results = rerun.getByRole("list", { name: "Re-run results" });
  await expect(results.getByRole("listitem")).toHaveCount(1);
  await expect(results.getByRole("listitem")).toContainText("Dataset member");
  await expect(results.getByRole("listitem")).toContainText("no errors here: pass");
  await screenshot(page, "dataset-replays");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(results).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoCriticalA11yViolations(page);
});

test("traces selected in the list replay together: the SDK call carries their ids and the dialog follows the replay", async ({ page, api }) => {
  const fn = "selection-replay-journey";
  const seeded = [];
  for (const name of ["Pick me A", "Pick me B"]) {
    seeded.push(await seedTrace(api, { traceFunctionKey: fn, name, spans: [{ name: fn, startMs: 0, endMs: 100, input: [name], output: "a" }] }));
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`/traces?fn=${fn}`);
  for (const [i, name] of ["Pick me A", "Pick me B"].entries()) {
    await page.getByRole("checkbox", { name: `Select ${name} (${seeded[i]!.traceId.slice(0, 8)})` }).check();
  }
  await page.getByRole("button", { name: "Replay 2 selected" }).click();
  const card = page.getByRole("region", { name: "Replay selected traces" });
  const code = await card.locator("pre").innerText();
  for (const { traceId } of seeded) expect(code).toContain(`"${traceId}"`);
  expect(code).toContain(`reprise.replay("${fn}"`);
  const name = /name: "(console-[a-z0-9]+)"/.exec(code)![1]!;
  await expect(card.getByTestId("replay-follow")).toContainText(`Waiting for replay ${name} to start`);
  await expectNoCriticalA11yViolations(page);

  // The runner's first call, as the SDK sends it with the ids shown: the dialog picks the replay up by name.
  const start = await post(api, "/api/sdk/replay/start", { traceFunctionKey: fn, traceIds: seeded.map((s) => s.traceId), name });
  await expect(card.getByTestId("replay-follow")).toContainText(`Replay ${name} running · 0 of 2 replayed`, { timeout: 20_000 });
  await expect(card.getByRole("link", { name })).toHaveAttribute("href", `/replays/${start.testRunId}`);
});
