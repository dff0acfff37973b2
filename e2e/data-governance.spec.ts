// Redaction and export in the console (docs/operations.md, "Redaction", "Export and import"): a person adds a
// custom pattern in Settings, a trace sent afterwards is stored masked, and the trace list's Export downloads
// the filtered traces as JSON Lines with progress, the masked text in it and the secret nowhere.
import fs from "node:fs";
import { DESKTOP, expect, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "governance-export";
const SECRET = "E2ETOKEN-4821";

test.describe.configure({ timeout: 180_000 });

test("a redaction pattern saved in Settings masks what arrives next, and Export downloads the filtered traces", async ({ page, api }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/settings");
  const card = page.getByRole("region", { name: "Redaction" });
  await page.getByLabel("Custom patterns").fill("e2etoken: E2ETOKEN-[0-9]{4}");
  await page.getByLabel("Try the rules on a sample").fill(`call ${SECRET} now`);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByLabel("Redacted sample")).toHaveText("call [REDACTED:custom:e2etoken] now");
  await page.getByRole("button", { name: "Save rules" }).click();
  await expect(card.getByText(/In force: version \d+/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Redaction rule versions" }).getByRole("row")).not.toHaveCount(1);

  await seedTrace(api, { traceFunctionKey: FN, name: "export me", spans: [{ name: "answer", input: [`token ${SECRET}`], output: "ok", startMs: 0, endMs: 50 }] });
  await page.goto(`/traces?fn=${FN}`);
  await expect(page.getByTestId("trace-count")).toContainText("of 1 trace");
  await page.getByRole("button", { name: "Export" }).click();
  const dialog = page.getByRole("dialog", { name: "Export 1 trace" });
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  const text = fs.readFileSync(await download.path(), "utf8");
  const lines = text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { kind: string; trace: { trace_function_key: string }; spans: unknown[] });
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ kind: "trace", trace: { trace_function_key: FN } });
  expect(text).toContain("[REDACTED:custom:e2etoken]");
  expect(text).not.toContain(SECRET);
});
