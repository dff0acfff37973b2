// Dataset and grader journeys: a rule grader created in its form, a dataset
// created, traces added by search on its page, the grader assigned, and a re-run watched until it completes; the
// grader labels it wrote are what GET /api/sdk/graderLabels returns.
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "summarize-ticket";

test("dataset: create, add traces, assign a grader, re-run until the progress bar completes", async ({ page, api }) => {
  const seeded = [];
  for (const name of ["Ticket 101 summary", "Ticket 102 summary"]) {
    seeded.push(await seedTrace(api, {
      traceFunctionKey: FN,
      name,
      spans: [{ name: FN, startMs: 0, endMs: 300, input: [name], output: "short summary" }],
    }));
  }

  await signIn(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Graders" }).click();
  await page.getByRole("button", { name: "New grader" }).click();
  const graderDialog = page.getByRole("dialog", { name: "New grader" });
  await graderDialog.getByLabel("Name").fill("no errors");
  await graderDialog.getByLabel("Trace function").fill(FN);
  await expect(graderDialog.getByLabel("Check")).toHaveValue("noErrors");
  await graderDialog.getByRole("button", { name: "Create grader" }).click();
  await expect(graderDialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Edit no errors", exact: true })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "graders");

  await nav.getByRole("link", { name: "Datasets" }).click();
  await page.getByRole("button", { name: "New dataset" }).click();
  const datasetDialog = page.getByRole("dialog", { name: "New dataset" });
  await datasetDialog.getByLabel("Trace function").fill(FN);
  await datasetDialog.getByLabel("Dataset name").fill("Escalations");
  await datasetDialog.getByLabel("Description").fill("Tickets that were escalated");
  await datasetDialog.getByRole("button", { name: "Create dataset" }).click();
  await expect(datasetDialog).toBeHidden();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "datasets");
  await page.getByRole("link", { name: "Escalations" }).click();

  await expect(page.getByRole("heading", { name: "Escalations" })).toBeVisible();
  const traces = page.getByRole("region", { name: "Traces of the dataset" });
  const add = page.getByRole("region", { name: "Add traces" });
  await add.getByLabel("Trace title").fill("summary");
  await add.getByRole("button", { name: "Search" }).click();
  for (const { traceId } of seeded) await add.getByRole("button", { name: new RegExp(`Add .*${traceId.slice(0, 8)}`) }).click();
  await expect(traces.getByRole("heading", { name: "Traces (2)" })).toBeVisible();

  await page.getByRole("region", { name: "Graders of the dataset" }).getByRole("button", { name: "Assign no errors", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unassign no errors", exact: true })).toBeVisible();

  const rerun = page.getByRole("region", { name: "Grader re-run" });
  await rerun.getByRole("button", { name: "Re-run graders" }).click();
  await expect(rerun.getByRole("progressbar", { name: "Re-run progress" })).toHaveAttribute("aria-valuenow", "100", { timeout: 45_000 });
  await expect(rerun.getByText(/Status: completed — 2 traces graded by 1 graders/)).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "dataset");

  const res = await api.get(`/api/sdk/graderLabels?traceIds=${seeded.map((s) => s.traceId).join(",")}`);
  expect(res.status()).toBe(200);
  const labels = (await res.json()).labels as { graderName: string; label: boolean }[];
  expect(labels.filter((l) => l.graderName === "no errors").map((l) => l.label)).toEqual([true, true]);
});
