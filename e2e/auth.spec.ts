// Sign-in/out and settings journeys.
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

test("a signed-out visitor is sent to sign-in; a wrong password is refused; the first-run user signs in and out", async ({ page }) => {
  await page.goto("/traces");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "sign-in");

  await page.getByLabel("Email").fill(E2E.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();

  await page.getByLabel("Password").fill(E2E.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Traces" })).toBeVisible();
  const cookie = (await page.context().cookies()).find((c) => c.name === "reprise_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 86400);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("settings: a new API key is shown once and works on the API until revoked; an added user can sign in", async ({ page, playwright }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("e2e key");
  await dialog.getByRole("button", { name: "Create" }).click();
  const key = (await dialog.getByLabel("New API key").textContent())!.trim();
  expect(key).toMatch(/^rp_/);
  await expect(dialog.getByRole("button", { name: "Copy" })).toBeVisible();
  await screenshot(page, "settings-new-key");
  await dialog.getByRole("button", { name: "Done" }).click();

  const anonymous = await playwright.request.newContext({ baseURL: E2E.baseUrl });
  const whoami = () => anonymous.get("/api/sdk/whoami", { headers: { authorization: `Bearer ${key}` } });
  expect((await whoami()).status()).toBe(200);
  await expect(page.getByText(key)).toHaveCount(0);

  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: /^Revoke e2e key/ }).click();
  await expect(page.getByRole("row", { name: /e2e key/ }).getByText("Revoked")).toBeVisible();
  expect((await whoami()).status()).toBe(401);
  await anonymous.dispose();

  await page.getByRole("button", { name: "Add user" }).click();
  const addDialog = page.getByRole("dialog");
  await addDialog.getByLabel("Email").fill("colleague@example.com");
  await addDialog.getByLabel("Password").fill("colleague-password");
  await addDialog.getByRole("button", { name: "Add user" }).click();
  // The audit log's "Made by" filter lists the new user too.
  await expect(page.getByText("colleague@example.com").first()).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "settings");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, "colleague@example.com", "colleague-password");
  await expect(page.getByText("colleague@example.com").first()).toBeVisible();
});
