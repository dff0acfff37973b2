// The labelling queue (docs/api/console.md "Labelling queue"): a labeller works through a filtered queue of 20
// traces with one key per trace, typing a note never records a verdict, undo goes back one, a reload resumes,
// the end screen leads back to the filtered list, and every verdict says who recorded it. Desktop and phone.
import type { APIRequestContext, Page } from "@playwright/test";
import { E2E, expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "queue-journey";

async function seedQueue(api: APIRequestContext, fn: string, n: number) {
  for (let i = 1; i <= n; i++) {
    await seedTrace(api, { traceFunctionKey: fn, name: `Question ${i}`, spans: [{ name: fn, startMs: 0, endMs: 100, input: [{ messages: [{ role: "user", content: `question number ${i}` }] }], output: `answer ${i}` }] });
  }
  const res = await api.get(`/api/sdk/traces?traceFunctionKey=${fn}&limit=100`);
  return ((await res.json()).traces as { id: string }[]).map((t) => t.id);
}

async function verdicts(api: APIRequestContext, ids: string[]) {
  const res = await api.get(`/api/sdk/traces/labels?traceIds=${ids.join(",")}`);
  const byId = new Map(((await res.json()).labels as { traceId: string; label: boolean | null; annotation: string | null }[]).map((l) => [l.traceId, l]));
  return ids.map((id) => byId.get(id)!);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test.describe.serial("labelling queue", () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  let ids: string[] = [];

  test.beforeAll(async ({ playwright }) => {
    const api = await playwright.request.newContext({ baseURL: E2E.baseUrl, extraHTTPHeaders: { authorization: `Bearer ${E2E.apiKey}` } });
    ids = await seedQueue(api, FN, 20);
    await api.dispose();
  });

  test("one key per trace through a filtered queue of 20, notes never steal keys, undo, reload, end screen", async ({ page, api }) => {
    await signIn(page);
    await page.goto(`/traces?fn=${FN}&label=unlabeled`);
    await expect(page.getByTestId("trace-count")).toHaveText("1–20 of 20 traces");
    await page.getByRole("link", { name: "Label these 20 in a queue" }).click();
    const progress = page.getByTestId("queue-progress");
    await expect(progress).toContainText("1 of 20");
    await expect(page.getByRole("list", { name: "Trace input" })).toContainText("question number 20");
    await expectNoCriticalA11yViolations(page);
    await screenshot(page, "label-queue");

    // Traces 1-4: one key each, pressed without waiting for anything.
    for (const key of ["p", "f", "p", "p"]) await page.keyboard.press(key);
    await expect(progress).toContainText("5 of 20");

    // Trace 5: a note with letters that are shortcuts elsewhere; Escape leaves it, then F records fail with it.
    const note = page.getByLabel("Note (optional)");
    await note.click();
    await page.keyboard.type("pfnu: wrong policy");
    await expect(progress).toContainText("5 of 20");
    await page.keyboard.press("Escape");
    await page.keyboard.press("f");
    await expect(progress).toContainText("6 of 20");
    await expect(note).toHaveValue("");

    // Trace 6: Ctrl+Enter in the note records pass; the next key is a verdict again, not text.
    await note.click();
    await page.keyboard.type("fine");
    await page.keyboard.press("Control+Enter");
    await page.keyboard.press("p");
    await expect(progress).toContainText("8 of 20");
    await expect(note).toHaveValue("");

    // Undo goes back to trace 7 and removes its verdict; a reload resumes there.
    await page.keyboard.press("u");
    await expect(progress).toContainText("7 of 20");
    await expect.poll(async () => (await verdicts(api, [ids[6]!]))[0]!.label).toBeNull();
    await page.reload();
    await expect(progress).toContainText("7 of 20");

    for (let i = 7; i <= 20; i++) await page.keyboard.press(i % 2 ? "p" : "f");
    await expect(page.getByRole("heading", { name: "End of the queue" })).toBeVisible();
    await expectNoCriticalA11yViolations(page);

    const expected = ["p", "f", "p", "p", "f", "p", ...Array.from({ length: 14 }, (_, k) => ((k + 7) % 2 ? "p" : "f"))].map((k) => k === "p");
    await expect.poll(async () => (await verdicts(api, ids)).map((v) => v.label)).toEqual(expected);
    const got = await verdicts(api, ids);
    expect(got[4]!.annotation).toBe("pfnu: wrong policy");
    expect(got[5]!.annotation).toBe("fine");
    expect(got.filter((v) => v.annotation !== null)).toHaveLength(2);

    await page.getByRole("link", { name: "Back to the filtered list" }).click();
    await expect(page).toHaveURL(new RegExp(`/traces\\?fn=${FN}&label=unlabeled$`));
    await expect(page.getByRole("heading", { name: "No traces match these filters" })).toBeVisible();

    await page.goto(`/traces/${ids[4]}`);
    await expect(page.getByRole("region", { name: "Whole trace" }).getByTestId("recorded-by")).toContainText(`by ${E2E.email}`);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the queue and the list fit the screen; the Pass button records and advances", async ({ page, playwright }) => {
      const api = await playwright.request.newContext({ baseURL: E2E.baseUrl, extraHTTPHeaders: { authorization: `Bearer ${E2E.apiKey}` } });
      const phoneIds = await seedQueue(api, `${FN}-phone`, 3);
      await signIn(page);
      await page.goto(`/traces?fn=${FN}-phone`);
      await expect(page.getByTestId("trace-count")).toHaveText("1–3 of 3 traces");
      await noSidewaysScroll(page);
      await page.getByRole("link", { name: "Label these 3 in a queue" }).click();
      await expect(page.getByTestId("queue-progress")).toContainText("1 of 3");
      await noSidewaysScroll(page);
      await expectNoCriticalA11yViolations(page);
      await page.getByRole("button", { name: "Pass (P)" }).click();
      await expect(page.getByTestId("queue-progress")).toContainText("2 of 3");
      await expect.poll(async () => (await verdicts(api, [phoneIds[0]!]))[0]!.label).toBe(true);
      await screenshot(page, "label-queue-phone");
      await api.dispose();
    });
  });
});
