// Console edges: unknown addresses get a not-found page with a way back, and the favicon is served
// (no 404 in the browser's console on any page load).
import { expect, expectNoCriticalA11yViolations, signIn, test } from "./fixtures.ts";

test("an unknown address shows a not-found page with navigation; the favicon loads without a 404", async ({ page }) => {
  const failures: string[] = [];
  page.on("console", (message) => {
    // The unknown address's own 404 is the point of the test; anything else (a missing favicon) is not.
    if (message.type() === "error" && !message.location().url.includes("/no-such-page")) failures.push(message.text());
  });
  page.on("response", (response) => {
    if (response.status() === 404 && response.request().resourceType() !== "document") failures.push(`404 ${response.url()}`);
  });

  await signIn(page);
  await expect(page.locator('head link[rel="icon"]')).toHaveAttribute("href", /icon/);
  const icon = await page.request.get((await page.locator('head link[rel="icon"]').first().getAttribute("href"))!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");

  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Datasets" }).click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();
  expect(failures).toEqual([]);
});

test("console links fetch their page when pointed at, not when they come into view", async ({ page }) => {
  await signIn(page);
  const fetched: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("_rsc=")) fetched.push(new URL(request.url()).pathname);
  });
  await page.goto("/traces");
  await expect(page.getByRole("heading", { name: "Traces" })).toBeVisible();
  // Every link of the sidebar and the list is in view; none of their pages may be rendered for it.
  await page.waitForLoadState("networkidle");
  expect(fetched).toEqual([]);
  const datasets = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Datasets" });
  const prefetch = page.waitForRequest((request) => request.url().includes("/datasets?_rsc="));
  await datasets.hover();
  await prefetch;
  await datasets.click();
  await expect(page.getByRole("heading", { name: "Datasets" })).toBeVisible();
});
