// People: an owner invites someone by a link shown once, the invitee chooses their own password and signs in, and
// removing them ends their session at once.
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

test("an invitation link lets a person join and sign in; removing them signs them out at once", async ({ page, browser }) => {
  await signIn(page);
  await page.goto("/settings");
  await page.getByRole("button", { name: "Invite" }).click();
  const invite = page.getByRole("dialog");
  await invite.getByLabel("Email").fill("invitee@example.com");
  await invite.getByLabel("Role").selectOption("member");
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByTestId("one-time-link").textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${E2E.baseUrl}/invite/`));
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("button", { name: "Revoke invitation of invitee@example.com" })).toBeVisible();

  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(link);
  await expect(them.getByText("as member, signing in as invitee@example.com")).toBeVisible();
  await expectNoCriticalA11yViolations(them);
  await them.getByLabel("Choose a password").fill("invitee-password-1");
  await them.getByRole("button", { name: "Join" }).click();
  await expect(them.getByRole("status")).toContainText("Welcome to E2E Org");
  await signIn(them, "invitee@example.com", "invitee-password-1");
  // The link worked once.
  await them.goto(link);
  await expect(them.getByText("This invitation was already used")).toBeVisible();

  await page.reload();
  await expect(page.getByRole("button", { name: "Revoke invitation of invitee@example.com" })).toHaveCount(0);
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Remove invitee@example.com" }).click();
  await expect(page.getByRole("button", { name: "Restore invitee@example.com" })).toBeVisible();
  await screenshot(page, "settings-people");

  await them.goto("/traces");
  await expect(them).toHaveURL(/\/sign-in/);
  await theirs.close();
});
