// Trace list and page views (docs/console.md): LLM messages as a chat, raw JSON, the span panel beside the
// tree on a wide screen, the session link, search over content, a total count and the page kept in the
// URL; on a phone the list, a trace and settings need no sideways scroll; dark mode follows the system.
import type { Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "views-journey";
const MESSAGES = [{ role: "system", content: "Answer briefly." }, { role: "user", content: "Where is my parcel?" }];

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe.serial("trace views", () => {
  let traceId = "";

  test.beforeAll(async ({ playwright }) => {
    const api = await playwright.request.newContext({ baseURL: E2E.baseUrl, extraHTTPHeaders: { authorization: `Bearer ${E2E.apiKey}` } });
    for (let i = 0; i < 26; i++) await seedTrace(api, { traceFunctionKey: `${FN}-bulk`, name: `Bulk ${i}`, spans: [{ name: "bulk", startMs: 0, endMs: 10, output: `bulk ${i}` }] });
    ({ traceId } = await seedTrace(api, {
      traceFunctionKey: FN,
      name: "Parcel question",
      spans: [
        { name: FN, startMs: 0, endMs: 900, input: [{ question: "Where is my parcel?" }], output: "In Lyon, arriving Friday" },
        { name: "chat", parent: FN, type: "llm", startMs: 10, endMs: 800, input: [{ model: "m-1", messages: MESSAGES }], output: { role: "assistant", content: "In Lyon, arriving Friday" } },
      ],
    }));
    const patched = await api.patch(`/api/sdk/traces/${traceId}`, { data: { setSessionId: "session-views-1" } });
    expect(patched.ok()).toBe(true);
    await api.dispose();
  });

  test.use({ viewport: { width: 1440, height: 900 } });

  test("search reaches content, the list counts and keeps its page in the URL", async ({ page }) => {
    await signIn(page);
    await page.goto(`/traces?fn=${FN}-bulk`);
    await expect(page.getByTestId("trace-count")).toHaveText("1–25 of 26 traces");
    await page.getByRole("button", { name: "Older" }).click();
    await expect(page.getByTestId("trace-count")).toHaveText("26–26 of 26 traces");
    await expect(page).toHaveURL(/c=/);
    await page.reload();
    await expect(page.getByTestId("trace-count")).toHaveText("26–26 of 26 traces");
    await expect(page.getByRole("link", { name: "Bulk 0" })).toBeVisible();

    await page.goto("/traces");
    const search = page.getByRole("search", { name: "Filter traces" }).getByLabel("Search");
    await search.fill("arriving friday");
    await search.press("Enter");
    await expect(page.getByTestId("trace-count")).toHaveText("1–1 of 1 trace");
    await expect(page.getByRole("link", { name: "Parcel question" })).toBeVisible();
    await expect(page.getByRole("table").getByText("In Lyon, arriving Friday")).toBeVisible();
  });

  test("the trace page: span panel beside the tree, a chat view, raw JSON and a session link", async ({ page }) => {
    await signIn(page);
    await page.goto(`/traces/${traceId}`);
    const tree = page.getByRole("region", { name: "Spans" });
    await tree.getByRole("button", { name: "llm chat", exact: true }).click();
    const panel = page.getByRole("region", { name: "Span chat" });
    const [treeBox, panelBox] = [await tree.boundingBox(), await panel.boundingBox()];
    expect(panelBox!.x).toBeGreaterThan(treeBox!.x + treeBox!.width - 1);
    expect(panelBox!.y).toBeLessThan(treeBox!.y + treeBox!.height);

    const chat = panel.getByRole("list", { name: "Span input" });
    await expect(chat.getByRole("listitem")).toHaveText([/system\s*Answer briefly\./i, /user\s*Where is my parcel\?/i]);
    await expect(panel.getByRole("list", { name: "Span output" })).toContainText("In Lyon, arriving Friday");
    await panel.getByRole("group", { name: "Span input: view" }).getByRole("button", { name: "Raw" }).click();
    await expect(panel.getByLabel("Span input", { exact: true })).toContainText('"messages": [');
    await expectNoCriticalA11yViolations(page);
    await screenshot(page, "trace-views");

    await page.getByRole("link", { name: "session-views-1" }).click();
    await expect(page).toHaveURL(/session=session-views-1/);
    await expect(page.getByTestId("trace-count")).toHaveText("1–1 of 1 trace");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test("the list, a trace and settings need no sideways scroll", async ({ page }) => {
      await signIn(page);
      await page.goto("/traces");
      await expect(page.getByTestId("trace-count")).toBeVisible();
      await noSidewaysScroll(page);
      await page.goto(`/traces/${traceId}`);
      await expect(page.getByRole("heading", { name: "Parcel question" })).toBeVisible();
      await noSidewaysScroll(page);
      await expectNoCriticalA11yViolations(page);
      await page.goto("/settings");
      await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
      await expect(page.getByRole("cell", { name: E2E.email }).first()).toBeVisible();
      await noSidewaysScroll(page);
    });
  });

  test.describe("in dark mode", () => {
    test.use({ colorScheme: "dark" });
    test("pages turn dark and text keeps its contrast", async ({ page }) => {
      await signIn(page);
      for (const path of ["/traces", `/traces/${traceId}`, "/traces/queue?fn=" + FN]) {
        await page.goto(path);
        await expect(page.getByRole("heading").first()).toBeVisible();
        await page.waitForLoadState("networkidle");
        const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        expect(bg).not.toBe("rgb(250, 250, 250)");
        const contrast = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
        expect(contrast.violations.flatMap((v) => v.nodes.map((n) => `${path}: ${n.target.join(" ")} ${n.failureSummary}`))).toEqual([]);
      }
      await screenshot(page, "dark-queue");
    });
  });
});
