// Data lifecycle journeys (docs/operations.md, "Retention" and "Deleting data"): the retention period set in
// Settings (a bad value refused, then saved and listed as a change), and a filtered delete from the trace list
// (counted, confirmed, gone from the list and from the REST read, and one event in the audit log).
import { expect, expectNoCriticalA11yViolations, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "lifecycle-journey";

test("retention: a bad period is refused, a good one saved and recorded", async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  const card = page.getByRole("region", { name: "Retention" });
  await expect(card.getByText("Now: kept forever")).toBeVisible();
  page.on("dialog", (dialog) => void dialog.accept());
  const days = card.getByLabel("Retention period (days)");
  await days.fill("0");
  await card.getByRole("button", { name: "Save retention" }).click();
  await expect(card.getByRole("alert")).toContainText("at least 1 day");
  await expect(card.getByText("Now: kept forever")).toBeVisible();
  await days.fill("30");
  await card.getByRole("button", { name: "Save retention" }).click();
  await expect(card.getByText("Now: 30 days")).toBeVisible();
  await expect(card.getByRole("list", { name: "Retention changes" })).toContainText("kept forever → 30 days (console)");
  await expectNoCriticalA11yViolations(page);
});

test("filtered delete: count, confirm, and the traces are gone", async ({ page, api }) => {
  const doomed = [];
  for (const name of ["Refund request A", "Refund request B"]) {
    doomed.push(await seedTrace(api, { traceFunctionKey: FN, name, spans: [{ name: FN, startMs: 0, endMs: 100, input: [name], output: "ok" }] }));
  }
  const kept = await seedTrace(api, { traceFunctionKey: FN, name: "Shipping question", spans: [{ name: FN, startMs: 0, endMs: 100, input: ["ship"], output: "ok" }] });

  await signIn(page);
  await page.goto(`/traces?fn=${FN}&q=Refund`);
  await expect(page.getByTestId("trace-count")).toHaveText(/of 2 traces/);
  await page.getByRole("button", { name: "Delete matching…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete traces" });
  await expect(dialog).toContainText("Delete the 2 traces matching these filters");
  await expectNoCriticalA11yViolations(page);
  await dialog.getByRole("button", { name: "Delete 2 traces" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("trace-count")).toHaveText("No traces");

  for (const { traceId } of doomed) expect((await api.get(`/api/sdk/traces/${traceId}`)).status()).toBe(404);
  expect((await api.get(`/api/sdk/traces/${kept.traceId}`)).status()).toBe(200);

  // The audit log shows the delete as one event, with its filter and count.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByRole("list", { name: "Audit events" });
  const event = audit.getByRole("listitem").filter({ hasText: "trace.bulk_deleted" }).filter({ hasText: FN }).first();
  await expect(event).toContainText('"by":"filter"');
  await expect(event).toContainText('"count":2');
  await expect(audit.getByRole("listitem").filter({ hasText: "trace.deleted" }).filter({ hasText: doomed[0]!.traceId })).toHaveCount(0);
});
