// Curation that never overwrites silently: "New dataset" and "New grader" refuse an existing name and offer to
// open it; an LLM judge without a configured model is saved only after a warning; a dataset lists its members a
// page at a time with remove, and traces join it from the trace page, from a multi-select in the trace list, and
// by search on the dataset page. Pages checked at phone and desktop sizes with axe.
import { checkAtBothSizes, DESKTOP, expect, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "curate-refunds";

test("New dataset and New grader refuse an existing name; an LLM judge without a model warns before saving", async ({ page, api }) => {
  const res = await api.post("/api/sdk/datasets", { data: { traceFunctionKey: FN, name: "Refunds", description: "kept as it is" } });
  expect(res.status()).toBeLessThan(300);
  const grader = await api.post("/api/sdk/graders", { data: { traceFunctionKey: FN, name: "refund rule", kind: "rule", config: { check: { op: "noErrors" } } } });
  expect(grader.status()).toBeLessThan(300);

  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/datasets");
  await page.getByRole("button", { name: "New dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "New dataset" });
  await dialog.getByLabel("Trace function").fill(FN);
  await dialog.getByLabel("Dataset name").fill("Refunds");
  await dialog.getByRole("button", { name: "Create dataset" }).click();
  await expect(dialog.getByRole("alert")).toContainText(`A dataset named "Refunds" already exists for trace function "${FN}".`);
  await checkAtBothSizes(page, "dataset-new-conflict");
  await dialog.getByRole("link", { name: "open the existing dataset" }).click();
  await expect(page.getByRole("heading", { name: "Refunds", level: 1 })).toBeVisible();
  await expect(page.getByText("kept as it is")).toBeVisible();

  await page.goto("/graders");
  await page.getByRole("button", { name: "New grader" }).click();
  const newGrader = page.getByRole("dialog", { name: "New grader" });
  await newGrader.getByLabel("Name").fill("refund rule");
  await newGrader.getByLabel("Trace function").fill(FN);
  // A bad field reads in words, not as an input path.
  await newGrader.getByLabel("Check").selectOption("matches");
  await newGrader.getByLabel("Value").fill("(unclosed");
  await newGrader.getByRole("button", { name: "Create grader" }).click();
  await expect(newGrader.getByRole("alert")).toHaveText(/^Check value must be a valid regular expression \(Invalid regular expression: .*\)\.$/);
  await newGrader.getByLabel("Check").selectOption("noErrors");
  await newGrader.getByRole("button", { name: "Create grader" }).click();
  await expect(newGrader.getByRole("alert")).toContainText(`A grader named "refund rule" already exists for trace function "${FN}" (id `);
  await newGrader.getByRole("button", { name: "edit the existing grader" }).click();
  const edit = page.getByRole("dialog", { name: "Edit refund rule" });
  await expect(edit.getByLabel("Check")).toHaveValue("noErrors");
  await checkAtBothSizes(page, "grader-edit-existing");
  await edit.getByRole("button", { name: "Cancel" }).click();

  // This server has no OPENAI_API_KEY and the default OPENAI_BASE_URL: the judge could reach no model.
  await page.getByRole("button", { name: "New grader" }).click();
  const judge = page.getByRole("dialog", { name: "New grader" });
  await judge.getByLabel("Name").fill("helpful");
  await judge.getByLabel("Trace function").fill(FN);
  await judge.getByLabel("Kind").selectOption("llm_judge");
  await judge.getByLabel("Instructions").fill("Passes when the answer helps.");
  await expect(judge.getByRole("alert")).toContainText("No judge model is configured on this server");
  await checkAtBothSizes(page, "grader-judge-warning");
  await judge.getByRole("button", { name: "Create grader" }).click();
  await expect(judge.getByRole("button", { name: "Save anyway" })).toBeVisible();
  await expect(judge).toBeVisible();
  await judge.getByRole("button", { name: "Save anyway" }).click();
  await expect(judge).toBeHidden();
  await expect(page.getByRole("button", { name: "Edit helpful" })).toBeVisible();
});

test("dataset members: added from the trace page, the trace list and by search, listed a page at a time, removed", async ({ page, api }) => {
  test.setTimeout(120_000);
  const fn = "curate-members";
  const seeded: string[] = [];
  for (let i = 1; i <= 28; i++) {
    seeded.push((await seedTrace(api, { traceFunctionKey: fn, name: `Member trace ${String(i).padStart(2, "0")}`, spans: [{ name: fn, startMs: 0, endMs: 100, input: [i], output: "ok" }] })).traceId);
  }
  const created = await api.post("/api/sdk/datasets", { data: { traceFunctionKey: fn, name: "Members" } });
  const datasetId = (await created.json()).dataset.id as string;

  await page.setViewportSize(DESKTOP);
  await signIn(page);

  // From the trace page (the newest trace).
  await page.goto(`/traces/${seeded[27]}`);
  await page.getByRole("button", { name: "Add to dataset" }).click();
  const fromTrace = page.getByRole("dialog", { name: "Add to dataset" });
  await fromTrace.getByRole("button", { name: "Add to Members" }).click();
  await expect(fromTrace.getByRole("status")).toHaveText("Added 1 to Members.");
  await expect(fromTrace.getByText("Already in it")).toBeVisible();
  await checkAtBothSizes(page, "trace-add-to-dataset");
  await fromTrace.getByRole("button", { name: "Done" }).click();

  // From a multi-select in the trace list: that trace again (already there) and two more.
  await page.goto(`/traces?fn=${fn}`);
  for (const n of ["28", "27", "26"]) await page.getByRole("checkbox", { name: new RegExp(`Member trace ${n}`) }).check();
  await page.getByRole("button", { name: "Add 3 to dataset" }).click();
  const fromList = page.getByRole("dialog", { name: "Add 3 traces to a dataset" });
  await fromList.getByRole("button", { name: "Add to Members" }).click();
  await expect(fromList.getByRole("status")).toHaveText("Added 2 to Members, 1 already in it.");
  await fromList.getByRole("button", { name: "Done" }).click();

  // The rest through the API, then the dataset page pages through all of them.
  const rest = await api.post(`/api/sdk/datasets/${datasetId}/traces`, { data: { traceIds: seeded.slice(0, 23) } });
  expect(rest.status()).toBe(200);
  await page.goto(`/datasets/${datasetId}`);
  const members = page.getByRole("region", { name: "Traces of the dataset" });
  await expect(members.getByRole("heading", { name: "Traces (26)" })).toBeVisible();
  await expect(members.getByText("1–25 of 26")).toBeVisible();
  await members.getByRole("button", { name: "Next" }).click();
  await expect(members.getByText("26–26 of 26")).toBeVisible();
  await expect(members.getByRole("link", { name: "Member trace 28" })).toBeVisible();
  await checkAtBothSizes(page, "dataset-members");
  await members.getByRole("button", { name: /Remove Member trace 28/ }).click();
  await expect(members.getByRole("heading", { name: "Traces (25)" })).toBeVisible();
  await expect(members.getByRole("link", { name: "Member trace 28" })).toBeHidden();

  // By search, any age: the removed trace comes back.
  const add = page.getByRole("region", { name: "Add traces" });
  await add.getByLabel("Trace title").fill("Member trace 28");
  await add.getByRole("button", { name: "Search" }).click();
  await add.getByRole("button", { name: /Add Member trace 28/ }).click();
  await expect(members.getByRole("heading", { name: "Traces (26)" })).toBeVisible();
  await expect(add.getByText("In the dataset")).toBeVisible();
  await checkAtBothSizes(page, "dataset-add-by-search");
});
