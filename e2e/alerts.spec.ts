// Alerts journey (docs/alerts.md): an admin adds a rule for a silent trace function, copies its secret (shown
// once), checks now: the rule fires and a real local webhook receiver gets a body signed with that secret, shown
// delivered in the rule's delivery log; a change is undone from the versions; traffic returns and the rule
// resolves, and the receiver gets the resolve.
import { createHmac, randomUUID } from "node:crypto";
import { startWebhookReceiver, type TWebhookReceiver } from "../server/insight/alerts/testing/webhook-receiver.ts";
import { checkAtBothSizes, expect, screenshot, signIn, test } from "./fixtures.ts";

const FN = `e2e-alerts-${randomUUID().slice(0, 8)}`;

test.describe.serial("alerts", () => {
  let receiver: TWebhookReceiver;
  test.beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterAll(async () => {
    await receiver?.close();
  });

  test("a rule fires once to a signed webhook, shows its delivery log, and resolves when traffic returns", async ({ page, api }) => {
    // A long journey (two sizes checked, six round trips to the evaluator) on a shared machine.
    test.setTimeout(180_000);
    await signIn(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
    await expect(page).toHaveURL(/\/alerts/);
    await expect(page.getByText("No alert rules yet")).toBeVisible();

    await page.getByRole("button", { name: "Add rule" }).click();
    await page.getByLabel("Name").fill("Silent function");
    await page.getByLabel("Condition").selectOption("silence");
    await page.getByLabel("Window (minutes)").fill("5");
    await page.getByLabel("Trace function").fill(FN);
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Save rule" }).click();
    const secret = (await page.getByLabel("Webhook secret", { exact: true }).innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();

    const row = page.getByRole("row").filter({ hasText: "Silent function" });
    await expect(row.getByText("OK")).toBeVisible();
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByText("Firing")).toBeVisible();
    await expect.poll(() => receiver.received.length).toBe(1);
    const firing = receiver.received[0]!;
    expect(firing.headers["x-reprise-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(firing.body).digest("hex")}`);
    expect(JSON.parse(firing.body)).toMatchObject({ event: "firing", episode: 1, rule: { name: "Silent function", traceFunctionKey: FN } });

    await row.getByRole("button", { name: "Details of Silent function" }).click();
    const log = page.getByRole("region", { name: "Delivery log" });
    await expect(log.getByText("Delivered")).toBeVisible();
    await expect(log.getByRole("cell", { name: /200/ })).toBeVisible();
    await checkAtBothSizes(page, "alerts-detail");
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();

    // A change is a version; restoring the first undoes it.
    await row.getByRole("button", { name: "Change Silent function" }).click();
    await page.getByLabel("Window (minutes)").fill("10");
    await page.getByRole("button", { name: "Save rule" }).click();
    await expect(row.getByText("No traces for 10 min")).toBeVisible();
    await row.getByRole("button", { name: "Details of Silent function" }).click();
    await page.getByRole("button", { name: "Restore v1" }).click();
    await expect(page.getByText("v3: Restored version 1")).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await expect(row.getByText("No traces for 5 min")).toBeVisible();

    // Still silent: checking again fires nothing new. Traffic returns: the next check resolves the rule.
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByText("Firing")).toBeVisible();
    const traceId = randomUUID();
    const at = new Date(Date.now() - 30_000).toISOString();
    const trace = await api.post("/api/sdk/externalTraces", {
      data: { type: "sdk-function", source: "typescript-sdk-function", traceFunctionKey: FN, completed: true, sdkVersion: "e2e", externalTrace: { id: traceId, started_at: at, ended_at: at } },
    });
    expect(trace.ok()).toBe(true);
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByText("OK")).toBeVisible();
    await expect.poll(() => receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual(["firing", "resolved"]);
    await screenshot(page, "alerts");
  });
});
