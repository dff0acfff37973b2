// Single sign-on: an admin configures the organization's OpenID Connect provider in Settings, and a person signs in
// through that provider's own pages (a real provider, oidc-provider, run by this spec on its own port); an address
// the provider has not verified comes back to the sign-in page with the reason.
import { signInAtProviderPage } from "./sso-steps.ts";
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { startOidcProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestOidcProvider } from "../test/oidc-provider.ts";

const PROVIDER_PORT = Number(process.env.REPRISE_E2E_OIDC_PORT ?? 3329);
let provider: TestOidcProvider;

test.beforeAll(async () => {
  provider = await startOidcProvider({ port: PROVIDER_PORT, redirectUris: [`${E2E.baseUrl}/api/auth/sso/callback`] });
});
test.afterAll(async () => provider?.close());

test("an admin sets up single sign-on; people sign in through the provider, verified e-mails only", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings");
  await page.getByLabel("Issuer URL").fill(provider.issuer);
  await page.getByLabel("Client ID").fill(TEST_CLIENT_ID);
  await page.getByLabel("Client secret").fill(TEST_CLIENT_SECRET);
  await page.getByLabel("Domains that join on first sign-in").fill("sso.example.com");
  await page.getByRole("button", { name: "Save single sign-on" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  // The secret is never shown back: the field is empty and says one is stored.
  await expect(page.getByLabel("Client secret")).toHaveValue("");
  await expect(page.getByText("Stored. Leave empty to keep it.")).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  // A new person of the admitted domain: through the provider's login and consent pages, back signed in.
  await page.getByLabel("Email").fill("ana@sso.example.com");
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await signInAtProviderPage(page, provider.issuer, "ana@sso.example.com");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByText("ana@sso.example.com").first()).toBeVisible();
  await expect(page.getByText("single sign-on ·", { exact: false }).first()).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "settings-sso");
  await page.getByRole("button", { name: "Sign out" }).click();

  // Another person, in another browser (the provider still remembers Ana in this one): an address the provider has
  // not verified is refused, with the reason on the sign-in page.
  await page.context().clearCookies();
  await page.getByLabel("Email").fill("unverified-bo@sso.example.com");
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await signInAtProviderPage(page, provider.issuer, "unverified-bo@sso.example.com");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole("alert").filter({ hasText: "has not verified unverified-bo@sso.example.com" })).toBeVisible();
  await screenshot(page, "sign-in-sso-refused");
});
