// The provider's own pages (oidc-provider's development login and consent), as a person goes through them.
import { expect, type Page } from "@playwright/test";

export async function signInAtProviderPage(page: Page, issuer: string, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${issuer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/interaction/`));
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}
