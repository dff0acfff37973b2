// Roles and key scopes in the console (docs/console.md, "Roles"): an owner adds a viewer and creates a key with a
// scope and an expiry, both in the audit log; the viewer reads the same trace but is offered no verdict buttons,
// no assertion dialog, no dataset actions, no replay card, no key creation, no role changes and no audit log; a
// member is offered the assertion dialog, the dataset's curation and the replay card, but not its deletion.
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

// Three people's views of two pages, each checked for accessibility: more than the default minute on a busy 2-core machine.
test.describe.configure({ timeout: 180_000 });

test("a viewer reads a trace without labelling buttons; keys list their scope, expiry and last use", async ({ page, api }) => {
  const { traceId } = await seedTrace(api, { traceFunctionKey: "roles-journey", name: "Roles", spans: [{ name: "roles-journey", startMs: 0, endMs: 100, output: "ok" }] });
  const made = await api.post("/api/sdk/datasets", { data: { traceFunctionKey: "roles-journey", name: "roles golden" } });
  expect(made.ok()).toBe(true);
  const datasetId = ((await made.json()) as { dataset: { id: string } }).dataset.id;
  // What a role may do on the trace and dataset pages, offered or not.
  const offered = async (who: { curate: boolean; delete: boolean }) => {
    await page.goto(`/traces/${traceId}`);
    await expect(page.getByRole("button", { name: "Add assertion" })).toHaveCount(who.curate ? 1 : 0);
    await page.goto(`/datasets/${datasetId}`);
    await expect(page.getByRole("heading", { name: "roles golden" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(who.curate ? 1 : 0);
    await expect(page.getByRole("button", { name: "Delete dataset", exact: true })).toHaveCount(who.delete ? 1 : 0);
    await expect(page.getByRole("search", { name: "Find traces to add" })).toHaveCount(who.curate ? 1 : 0);
    await expect(page.getByRole("button", { name: "Re-run graders" })).toHaveCount(who.curate ? 1 : 0);
    await expect(page.getByLabel("Replay this dataset")).toHaveCount(who.curate ? 1 : 0);
  };

  await signIn(page);
  await page.goto(`/traces/${traceId}`);
  await expect(page.getByRole("button", { name: "Pass the whole trace" })).toBeVisible();

  await page.goto("/settings");
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("embedded app");
  await dialog.getByLabel("Scope").selectOption("ingest");
  await dialog.getByLabel("Expires").selectOption("30");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(dialog.getByLabel("New API key")).toBeVisible();
  await dialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row", { name: /embedded app/ });
  await expect(row.getByText("ingest")).toBeVisible();
  await expect(row.getByText("Never")).toBeVisible();
  await expect(page.getByRole("row", { name: /default/ }).getByText("admin")).toBeVisible();

  await page.getByRole("button", { name: "Add user" }).click();
  const add = page.getByRole("dialog");
  await add.getByLabel("Email").fill("viewer@example.com");
  await add.getByLabel("Password").fill("viewer-password");
  await add.getByLabel("Role").selectOption("viewer");
  await add.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByLabel("Role of viewer@example.com")).toHaveValue("viewer");
  await page.getByRole("button", { name: "Add user" }).click();
  const addMember = page.getByRole("dialog");
  await addMember.getByLabel("Email").fill("member@example.com");
  await addMember.getByLabel("Password").fill("member-password");
  await addMember.getByLabel("Role").selectOption("member");
  await addMember.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByLabel("Role of member@example.com")).toHaveValue("member");
  await page.goto("/audit");
  const audit = page.getByRole("list", { name: "Audit events" });
  await expect(audit.getByRole("listitem").filter({ hasText: "user.created" }).filter({ hasText: "viewer@example.com" }).first()).toContainText('"role":"viewer"');
  await expect(audit.getByRole("listitem").filter({ hasText: "api-key.created" }).first()).toContainText('"scope":"ingest"');
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "settings-roles");

  await offered({ curate: true, delete: true });

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, "member@example.com", "member-password");
  await expect(page.getByTestId("my-role")).toHaveText("Role: member");
  await offered({ curate: true, delete: false });

  await page.getByRole("button", { name: "Sign out" }).first().click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, "viewer@example.com", "viewer-password");
  await expect(page.getByTestId("my-role")).toHaveText("Role: viewer");
  await page.goto(`/traces/${traceId}`);
  await expect(page.getByRole("region", { name: "Verdict" }).or(page.getByLabel("Verdict")).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Pass the whole trace" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Fail the whole trace" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add to dataset" })).toHaveCount(0);
  await offered({ curate: false, delete: false });

  await page.goto("/settings");
  await expect(page.getByRole("row", { name: /embedded app/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add user" })).toHaveCount(0);
  await expect(page.getByLabel(`Role of ${E2E.email}`)).toHaveCount(0);
  await page.goto("/audit");
  await expect(page.getByText("Admins and owners only")).toBeVisible();
  await expect(page.getByRole("list", { name: "Audit events" })).toHaveCount(0);
});
