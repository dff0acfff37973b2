// Sim plan changes are undoable (docs/console.md, "Sim plan"): a toggle applies at once and says what it changed
// (the node and those turned off beneath it); Undo puts every one of them back, as the SDKs read the plan; each
// node says who decided it.
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "plan-undo";

test("a sim plan toggle, with what it cascaded, is undone with one click", async ({ page, api }) => {
  test.setTimeout(180_000);
  await seedTrace(api, {
    traceFunctionKey: FN,
    name: "Plan undo",
    spans: [
      { name: FN, startMs: 0, endMs: 900 },
      { name: "undo-fetch", parent: FN, startMs: 10, endMs: 800 },
      { name: "undo-parse", parent: "undo-fetch", startMs: 20, endMs: 700 },
    ],
  });
  const offNodes = async () => ((await (await api.get("/api/sdk/sim-plan")).json()).nodes as { traceFunctionKey: string; name: string }[])
    .filter((n) => n.traceFunctionKey === FN).map((n) => n.name).sort();

  await signIn(page);
  await page.goto("/sim-plan");
  const card = page.getByRole("region", { name: `Trace function ${FN}` });
  const fetch = card.getByRole("switch", { name: "Capture content of undo-fetch" });
  const parse = card.getByRole("switch", { name: "Capture content of undo-parse" });
  await expect(fetch).toBeChecked();
  await fetch.click();
  await expect(fetch).not.toBeChecked();
  await expect(parse).not.toBeChecked();
  const last = page.getByRole("group", { name: "Last change" });
  await expect(last.getByRole("status")).toHaveText("Turned content capture off for undo-fetch and beneath it for undo-parse.");
  expect(await offNodes()).toEqual(["undo-fetch", "undo-parse"]);
  await expect(card.getByRole("listitem", { name: "Node undo-fetch" })).toContainText(`decided by ${E2E.email}`);
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "sim-plan-undo");

  await last.getByRole("button", { name: "Undo" }).click();
  await expect(last.getByRole("status")).toHaveText("Undone: the plan is as it was before that change.");
  await expect(fetch).toBeChecked();
  await expect(parse).toBeChecked();
  expect(await offNodes()).toEqual([]);
  await expect(last.getByRole("button", { name: "Undo" })).toHaveCount(0);
});
