// Assertion journeys: an assertion created on the trace page with a span target
// (a name and an occurrence chosen among the trace's spans) is what the REST read returns; the Assertions
// page lists it under its trace function, edits it and archives it.
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const TEXT = "The final model call proposes museums";
const EDITED = "The final model call proposes two museums";

test("assertion with a span target: created on the trace page, read over REST, edited and archived on the Assertions page", async ({ page, api }) => {
  const { traceId } = await seedTrace(api, {
    traceFunctionKey: "plan-trip",
    name: "Weekend in Lisbon",
    spans: [
      { name: "plan-trip", startMs: 0, endMs: 900, input: ["Lisbon"], output: "itinerary" },
      { name: "llm", key: "draft", parent: "plan-trip", type: "llm", startMs: 50, endMs: 300, output: "draft" },
      { name: "llm", key: "final", parent: "plan-trip", type: "llm", startMs: 400, endMs: 800, output: "final itinerary with museums" },
    ],
  });
  const restAssertions = async () => {
    const res = await api.get(`/api/sdk/traces/${traceId}/assertions`);
    expect(res.status()).toBe(200);
    return (await res.json()).assertions as Record<string, unknown>[];
  };

  await signIn(page);
  await page.goto(`/traces/${traceId}`);
  // The dialog fetches the trace's span names when it opens. Hold that answer until released, so the journey
  // always sees the dialog before they arrive, as a user on a slow connection does, not only now and then.
  let releaseSpanNames = () => {};
  const spanNamesHeld = new Promise<void>((resolve) => { releaseSpanNames = resolve; });
  await page.route(/assertions\.forTrace/, async (route) => { await spanNamesHeld; await route.continue(); });
  const card = page.getByRole("region", { name: "Assertions" });
  await card.getByRole("button", { name: "Add assertion" }).click();
  const dialog = page.getByRole("dialog", { name: "New assertion" });
  await dialog.getByLabel("Assertion").fill(TEXT);
  await dialog.getByLabel("Evaluate").selectOption({ label: "A span, by name" });
  // Until the names arrive the name waits, disabled, and so does the form: no free-text field to type into.
  const spanName = dialog.getByRole("combobox", { name: "Span name" });
  await expect(spanName).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Add assertion" })).toBeDisabled();
  releaseSpanNames();
  // Then it is a list of the trace's span names (a combobox: a textbox would fail here).
  await expect(spanName).toBeEnabled();
  await spanName.selectOption("llm");
  await dialog.getByLabel("Occurrence").selectOption({ label: "2nd (#1)" });
  await dialog.getByLabel("Check").selectOption({ label: "Output contains text" });
  await dialog.getByLabel("Value").fill("museums");
  await dialog.getByRole("button", { name: "Add assertion" }).click();
  await expect(dialog).toBeHidden();
  const item = card.getByRole("listitem", { name: `Assertion: ${TEXT}` });
  await expect(item.getByText("Span “llm” (#1)")).toBeVisible();

  expect(await restAssertions()).toEqual([expect.objectContaining({
    assertion: TEXT,
    targetOnEvaluatedTrace: { kind: "span", name: "llm", occurrence: 1 },
    check: { op: "contains", value: "museums" },
    source: "human",
  })]);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Assertions" }).click();
  const group = page.getByRole("region", { name: "Assertions of plan-trip" });
  await expect(group.getByRole("listitem", { name: `Assertion: ${TEXT}` })).toBeVisible();
  await expect(group.getByRole("link", { name: "Weekend in Lisbon" })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "assertions");

  await group.getByRole("button", { name: `Edit assertion: ${TEXT}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit assertion" });
  const editSpanName = edit.getByRole("combobox", { name: "Span name" });
  await expect(editSpanName).toBeEnabled();
  await expect(editSpanName).toHaveValue("llm");
  await expect(edit.getByLabel("Occurrence")).toHaveValue("1");
  await edit.getByLabel("Assertion").fill(EDITED);
  await edit.getByRole("button", { name: "Save assertion" }).click();
  await expect(edit).toBeHidden();
  await expect(group.getByRole("listitem", { name: `Assertion: ${EDITED}` })).toBeVisible();
  expect(await restAssertions()).toEqual([expect.objectContaining({ assertion: EDITED, targetOnEvaluatedTrace: { kind: "span", name: "llm", occurrence: 1 } })]);

  page.once("dialog", (d) => void d.accept());
  await group.getByRole("button", { name: `Archive assertion: ${EDITED}` }).click();
  await expect(page.getByRole("listitem", { name: `Assertion: ${EDITED}` })).toHaveCount(0);
  expect(await restAssertions()).toEqual([]);
});
