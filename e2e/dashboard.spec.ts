// Dashboard and model prices journeys (docs/dashboard.md, docs/cost.md): a chart's bar opens the traces behind
// it, as many as the chart says; a grader's score point opens the traces it scored; a price is added, changed, its earlier version restored, and costs recomputed.
import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "e2e-insight";

async function send(api: APIRequestContext, model: string, inputTokens: number, startedAt: Date) {
  const traceId = randomUUID();
  const start = startedAt.toISOString();
  const end = new Date(startedAt.getTime() + 1500).toISOString();
  const span = await api.post("/api/sdk/externalSpans", {
    data: {
      type: "sdk-function", source: "typescript-sdk-function", sourceTraceId: traceId, traceFunctionKey: FN, sdkVersion: "e2e",
      rawSpan: { id: randomUUID(), trace_id: traceId, started_at: start, ended_at: end, span_data: { name: "call-model", type: "llm", contexts: [{ model, inputTokens, outputTokens: 100 }] } },
    },
  });
  expect(span.ok()).toBe(true);
  const trace = await api.post("/api/sdk/externalTraces", {
    data: { type: "sdk-function", source: "typescript-sdk-function", traceFunctionKey: FN, completed: true, expectedSpanCount: 1, sdkVersion: "e2e", externalTrace: { id: traceId, started_at: start, ended_at: end } },
  });
  expect(trace.ok()).toBe(true);
}

test.describe.serial("dashboard", () => {
  test.beforeAll(async ({ playwright }) => {
    const { E2E } = await import("./env.ts");
    const api = await playwright.request.newContext({ baseURL: E2E.baseUrl, extraHTTPHeaders: { authorization: `Bearer ${E2E.apiKey}` } });
    const now = Date.now();
    // gpt-4o costs most, so its bar comes first; an unpriced local model for the price page.
    for (let i = 0; i < 3; i++) await send(api, "gpt-4o-2024-08-06", 50_000, new Date(now - (i + 1) * 60_000));
    for (let i = 0; i < 2; i++) await send(api, "gpt-4o-mini", 1000, new Date(now - (i + 5) * 60_000));
    await send(api, "e2e-local-7b", 1000, new Date(now - 9 * 60_000));
    await api.dispose();
  });

  test("a bar of the cost-by-model chart opens exactly the traces it counts", async ({ page }) => {
    await signIn(page);
    await page.goto("/");
    await expect(page).toHaveURL(/\/dashboard/);
    await page.getByRole("combobox", { name: "Trace function" }).selectOption(FN);
    const card = page.locator("section, div").filter({ has: page.getByRole("heading", { name: "Cost by model" }) }).last();
    await card.getByText("Table view").click();
    const row = card.getByRole("row").filter({ hasText: "gpt-4o-2024-08-06" });
    const figure = await row.getByRole("link").last().innerText();
    expect(figure).toBe("3");
    await expectNoCriticalA11yViolations(page);
    await screenshot(page, "dashboard");
    // The first bar (the costliest model): a click near the plot's left edge picks it.
    const plot = page.getByTestId("chart-Cost by model").locator(".u-over");
    const box = (await plot.boundingBox())!;
    await plot.click({ position: { x: Math.max(4, box.width * 0.1), y: box.height / 2 } });
    await expect(page).toHaveURL(/\/traces\?.*model=gpt-4o-2024-08-06/);
    await expect(page.getByTestId("trace-count")).toHaveText(`1–${figure} of ${figure} traces`);
    await expect(page.getByRole("button", { name: "Remove the model filter" })).toBeVisible();
  });

  test("a point of a grader's score chart opens exactly the traces it scored", async ({ page, api }) => {
    const grader = await api.post("/api/sdk/graders", {
      data: { traceFunctionKey: FN, name: "e2e helpfulness", kind: "llm_judge", live: false, config: { model: "m", instructions: "Rate helpfulness.", output: { type: "score", min: 1, max: 5, passThreshold: 3 } } },
    });
    expect(grader.status()).toBe(200);
    const graderId = (await grader.json()).grader.id as string;
    // Three traces scored (2, 4, 5) and one the grader only passed: the score point counts the three.
    const traces: string[] = [];
    for (let i = 0; i < 4; i++) traces.push((await seedTrace(api, { traceFunctionKey: FN, name: `scored ${i}`, spans: [{ name: FN, input: ["q"], output: "a", startMs: 0, endMs: 20 }] })).traceId);
    const labels = [{ score: 2 }, { score: 4 }, { score: 5 }, { label: true }].map((v, i) => ({ traceId: traces[i], graderId, ...v }));
    expect((await api.post("/api/sdk/graderLabels", { data: { labels } })).status()).toBe(200);

    await signIn(page);
    await page.goto(`/dashboard?fn=${FN}`);
    const heading = page.getByRole("heading", { name: /^Grader "e2e helpfulness": mean score/ });
    await expect(heading).toHaveText(`Grader "e2e helpfulness": mean score 3.67 of 3`);
    const card = page.locator("section, div").filter({ has: heading }).last();
    await card.getByText("Table view").click();
    const row = card.getByRole("row").last();
    const figure = await row.getByRole("link").innerText();
    expect(figure).toBe("3");
    await expect(row).toContainText("3.67");
    await expectNoCriticalA11yViolations(page);
    // The traces started a minute ago: the range's last interval, the chart's right edge.
    const plot = page.getByTestId("chart-Scores of e2e helpfulness").locator(".u-over");
    const box = (await plot.boundingBox())!;
    await plot.click({ position: { x: box.width - 2, y: box.height / 2 } });
    await expect(page).toHaveURL(new RegExp(`/traces\\?.*grader=${graderId}.*graderLabel=scored`));
    await expect(page.getByTestId("trace-count")).toHaveText(`1–${figure} of ${figure} traces`);
  });

  test("a price is added, changed and restored from its history, and a recompute prices the unpriced spans", async ({ page }) => {
    await signIn(page);
    await page.goto("/prices");
    await expect(page.getByRole("link", { name: "e2e-local-7b" })).toBeVisible();
    await page.getByRole("button", { name: "Add price" }).click();
    await page.getByLabel("Model pattern").fill("e2e-local-*");
    await page.getByLabel("Input", { exact: true }).fill("1");
    await page.getByLabel("Output", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Save price" }).click();
    const row = page.getByRole("row").filter({ hasText: "e2e-local-*" });
    await expect(row.getByText("Yours · v1")).toBeVisible();
    await row.getByRole("button", { name: "Change e2e-local-*" }).click();
    await page.getByLabel("Input", { exact: true }).fill("3");
    await page.getByRole("button", { name: "Save price" }).click();
    await expect(row.getByText("Yours · v2")).toBeVisible();
    await expect(row.getByText("$3")).toBeVisible();
    await row.getByRole("button", { name: "History of e2e-local-*" }).click();
    await page.getByRole("button", { name: "Restore v1" }).click();
    await page.getByRole("button", { name: "Close" }).click();
    await expect(row.getByText("Yours · v3")).toBeVisible();
    await expect(row.getByRole("cell", { name: "$1", exact: true })).toBeVisible();
    await expect(page.getByText("matches: recompute")).toBeVisible();
    await expectNoCriticalA11yViolations(page);
    await page.getByRole("button", { name: "Recompute" }).click();
    await expect(page.getByRole("list", { name: "Recomputes" }).getByText(/^done: /)).toBeVisible({ timeout: 30_000 });
    await page.reload();
    await expect(page.getByText("Every span with tokens has a price.")).toBeVisible();
    await screenshot(page, "prices");
  });
});
