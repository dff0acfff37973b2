// Shared steps for the journeys: signing in through the form, seeding through the real API with the
// first-run key, page screenshots (e2e/screenshots/, git-ignored) and the axe accessibility check.
import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./env.ts";

export { expect };

export const test = base.extend<{ api: APIRequestContext }>({
  api: async ({ playwright }, use) => {
    const api = await playwright.request.newContext({
      baseURL: E2E.baseUrl,
      extraHTTPHeaders: { authorization: `Bearer ${E2E.apiKey}` },
    });
    await use(api);
    await api.dispose();
  },
});

export async function signIn(page: Page, email = E2E.email, password = E2E.password) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** Fails when axe-core finds a critical accessibility violation on the page. */
export async function expectNoCriticalA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const critical = results.violations.filter((v) => v.impact === "critical");
  expect(critical.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export { E2E };

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Checks the current page at phone size (no sideways scroll, no critical axe violation) and at desktop size
 * (axe), leaving the page at desktop size.
 */
export async function checkAtBothSizes(page: Page, name?: string) {
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "the page scrolls sideways on a phone").toBeLessThanOrEqual(0);
  await expectNoCriticalA11yViolations(page);
  if (name) await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
  await expectNoCriticalA11yViolations(page);
  if (name) await screenshot(page, name);
}
