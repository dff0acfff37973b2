// A console that stays true while it is open: the trace list and the trace page take new traces and status
// changes without a reload, with one cheap poll per interval; traces of one function are told apart by their
// input; readable span names; dialogs that fit; replays kept out of the default list and queue.
import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { DESKTOP, expect, PHONE, signIn, test } from "./fixtures.ts";
import { seedReplay, seedTrace } from "./seed.ts";

const INTERVAL_MS = 5_000;

// The live journeys wait on polls, and each journey seeds through the API: on a loaded machine a minute is short.
test.describe.configure({ timeout: 120_000 });

async function post(api: APIRequestContext, path: string, data: unknown) {
  const res = await api.post(path, { data });
  if (!res.ok()) throw new Error(`${path} failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

const sdk = { type: "sdk-function", source: "typescript-sdk-function", sdkVersion: "e2e" };

/** One span of a new trace over REST, without its completion: the trace is pending. */
async function sendPendingTrace(api: APIRequestContext, traceFunctionKey: string) {
  const traceId = randomUUID();
  const now = new Date().toISOString();
  await post(api, "/api/sdk/externalSpans", {
    ...sdk, sourceTraceId: traceId, traceFunctionKey,
    rawSpan: { id: randomUUID(), trace_id: traceId, started_at: now, ended_at: now, span_data: { name: traceFunctionKey, type: "function", input: ["live?"], output: "yes" } },
  });
  return traceId;
}

async function completeTrace(api: APIRequestContext, traceFunctionKey: string, traceId: string) {
  await post(api, "/api/sdk/externalTraces", { ...sdk, id: traceId, traceFunctionKey, completed: true, expectedSpanCount: 1 });
}

/** The console's tRPC procedures the page calls from now on (a batched request names each of its calls). */
function recordCalls(page: Page) {
  const calls: string[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/api/trpc/")) calls.push(...path.slice("/api/trpc/".length).split(","));
  });
  return calls;
}

test.describe("live console", () => {
  test("a trace sent over REST appears in the open list and turns from pending to completed, without a reload or a busy poll", async ({ page, api }) => {
    const fn = `live-list-${randomUUID().slice(0, 8)}`;
    await signIn(page);
    await page.goto("/traces");
    await expect(page.getByTestId("trace-count")).toHaveText(/traces?$/);
    await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });

    const traceId = await sendPendingTrace(api, fn);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: fn, exact: true }) });
    await expect(row).toContainText("pending", { timeout: 3 * INTERVAL_MS });
    await expect(page.getByRole("status").filter({ hasText: "1 new trace" })).toBeVisible();
    await completeTrace(api, fn, traceId);
    await expect(row).toContainText("completed", { timeout: 3 * INTERVAL_MS });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // Nothing changes now: over two intervals the page asks only the cheap poll, at most once an interval.
    const calls = recordCalls(page);
    await page.waitForTimeout(2 * INTERVAL_MS + 1_000);
    expect(calls.filter((c) => c === "traces.changes").length).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c === "traces.changes").length).toBeLessThanOrEqual(3);
    expect(calls.filter((c) => c !== "traces.changes")).toEqual([]);
  });

  test("the trace page of a pending trace shows it completed when its completion arrives", async ({ page, api }) => {
    const fn = `live-page-${randomUUID().slice(0, 8)}`;
    const traceId = await sendPendingTrace(api, fn);
    await signIn(page);
    await page.goto(`/traces/${traceId}`);
    const header = page.locator("header").filter({ has: page.getByRole("heading", { name: fn }) });
    await expect(header).toContainText("pending");
    await completeTrace(api, fn, traceId);
    await expect(header).toContainText("completed", { timeout: 3 * INTERVAL_MS });
  });
});

test("traces of one function are told apart by their input: dataset members, Add traces and replay items", async ({ page, api }) => {
  const fn = `support-agent-${randomUUID().slice(0, 8)}`;
  const inputs = ["Where is order 1042?", "Cancel my subscription please"];
  const seeded = [];
  for (const input of inputs) {
    seeded.push(await seedTrace(api, { traceFunctionKey: fn, name: fn, spans: [{ name: fn, startMs: 0, endMs: 100, input: [input], output: "ok" }] }));
  }
  const { dataset } = await post(api, "/api/sdk/datasets", { traceFunctionKey: fn, name: "told apart" });
  await post(api, `/api/sdk/datasets/${dataset.id}/traces`, { traceIds: [seeded[0]!.traceId] });
  await signIn(page);
  await page.goto(`/datasets/${dataset.id}`);
  const members = page.getByRole("region", { name: "Traces of the dataset" });
  await expect(members.getByRole("listitem")).toHaveText([new RegExp(`${fn}.*in \\["Where is order 1042\\?"\\]`)]);
  const add = page.getByRole("region", { name: "Add traces" });
  await add.getByRole("button", { name: "Search" }).click();
  await expect(add.getByRole("listitem")).toHaveText([/in \["Cancel my subscription please"\].*Add/, /in \["Where is order 1042\?"\].*In the dataset/]);

  const { runId } = await seedReplay(api, { traceFunctionKey: fn, originalTraceId: seeded[1]!.traceId, name: "told apart", spans: [{ name: fn, startMs: 0, endMs: 50, input: [inputs[1]], output: "ok" }] });
  await page.goto(`/replays/${runId}`);
  await expect(page.getByRole("region", { name: new RegExp(`^Item 1: ${fn}`) })).toContainText('in ["Cancel my subscription please"]');
});

test("a new dataset offers the recorded trace functions and warns on an unknown one", async ({ page, api }) => {
  const fn = `known-fn-${randomUUID().slice(0, 8)}`;
  await seedTrace(api, { traceFunctionKey: fn, name: fn, spans: [{ name: fn, startMs: 0, endMs: 10 }] });
  await signIn(page);
  await page.goto("/datasets");
  await page.getByRole("button", { name: "New dataset" }).click();
  const dialog = page.getByRole("dialog", { name: "New dataset" });
  const field = dialog.getByLabel("Trace function");
  const listId = await field.getAttribute("list");
  // The recorded functions arrive after the dialog opens: wait for the list rather than read it once.
  await expect.poll(() => page.locator(`datalist[id="${listId}"] option`).evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value))).toContain(fn);
  await field.fill(fn.replace("known", "knwon"));
  await expect(dialog.getByText(/has been recorded\. Check the spelling/)).toBeVisible();
  await field.fill(fn);
  await expect(dialog.getByText(/Check the spelling/)).toHaveCount(0);
});

test("an SDK LLM span gets the chat view whether it recorded llm(messages, model) or a provider's request object", async ({ page, api }) => {
  const fn = `chat-shapes-${randomUUID().slice(0, 8)}`;
  const { traceId } = await seedTrace(api, {
    traceFunctionKey: fn, name: fn,
    spans: [
      { name: fn, startMs: 0, endMs: 300 },
      { name: "llm-args", parent: fn, type: "llm", startMs: 10, endMs: 100, input: [[{ role: "system", content: "Be brief." }, { role: "user", content: "Capital of France?" }], "gpt-4o"],
        output: { choices: [{ index: 0, message: { role: "assistant", content: "Paris." } }] } },
      { name: "llm-anthropic", parent: fn, type: "llm", startMs: 110, endMs: 200, input: [{ model: "claude-sonnet-4", system: "Be kind.", messages: [{ role: "user", content: [{ type: "text", text: "Hello there" }] }] }],
        output: { role: "assistant", content: [{ type: "text", text: "Hi!" }] } },
    ],
  });
  await signIn(page);
  await page.goto(`/traces/${traceId}`);
  const tree = page.getByRole("region", { name: "Spans" });
  await tree.getByRole("button", { name: "llm llm-args", exact: true }).click();
  let panel = page.getByRole("region", { name: "Span llm-args" });
  await expect(panel.getByRole("list", { name: "Span input" }).getByRole("listitem")).toHaveText([/system\s*Be brief\./i, /user\s*Capital of France\?/i]);
  await expect(panel.getByRole("list", { name: "Span output" })).toContainText("Paris.");
  await tree.getByRole("button", { name: "llm llm-anthropic", exact: true }).click();
  panel = page.getByRole("region", { name: "Span llm-anthropic" });
  await expect(panel.getByRole("list", { name: "Span input" }).getByRole("listitem")).toHaveText([/system\s*Be kind\./i, /user\s*Hello there/i]);
  await expect(panel.getByRole("list", { name: "Span output" })).toContainText("Hi!");
});

test("span names are readable in full at 1440 px and on a phone", async ({ page, api }) => {
  const fn = `deep-names-${randomUUID().slice(0, 8)}`;
  const names = ["agent_loop", "plan_step", "run_tools", "execute_tool get_weather_forecast", "http_request api.weather.example/forecast", "parse_response_payload"];
  const { traceId } = await seedTrace(api, {
    traceFunctionKey: fn, name: fn,
    spans: [{ name: fn, startMs: 0, endMs: 600 }, ...names.map((name, i) => ({ name, parent: i === 0 ? fn : names[i - 1], startMs: 10 * (i + 1), endMs: 500 }))],
  });
  await signIn(page);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`/traces/${traceId}`);
    const shown = page.getByRole("region", { name: "Spans" }).locator("[data-span-name]");
    await expect(shown).toHaveCount(names.length + 1);
    const boxes = await shown.evaluateAll((els) => els.map((e) => {
      const style = getComputedStyle(e);
      return { text: e.textContent, cut: e.scrollWidth > e.clientWidth, lines: Math.round(e.getBoundingClientRect().height / parseFloat(style.lineHeight)) };
    }));
    for (const box of boxes) {
      expect(box.cut, `${box.text} is cut at ${size.width} px`).toBe(false);
      expect(box.lines, `${box.text} takes ${box.lines} lines at ${size.width} px`).toBeLessThanOrEqual(2);
    }
    expect(boxes.map((b) => b.text)).toEqual([fn, ...names]);
  }
});

test("the LLM-judge dialog fits a 900 px-tall window, its buttons in view", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/graders");
  await page.getByRole("button", { name: "New grader" }).click();
  const dialog = page.getByRole("dialog", { name: "New grader" });
  await dialog.getByLabel("Kind").selectOption({ label: "LLM judge" });
  await expect(dialog.getByLabel("Instructions")).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
  await expect(dialog.getByRole("button", { name: /Create grader|Save anyway/ })).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeInViewport({ ratio: 1 });
});

test("the not-found page offers every place of the console, Review and Sim plan included", async ({ page }) => {
  await page.goto("/no-such-place");
  const nav = page.getByRole("navigation", { name: "Console" });
  for (const name of ["Traces", "Datasets", "Assertions", "Review", "Graders", "Sim plan", "Replays", "Settings"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
});

test("replays stay out of the default list and the function's labelling queue, and a filter brings them in", async ({ page, api }) => {
  const fn = `replayed-${randomUUID().slice(0, 8)}`;
  const { traceId } = await seedTrace(api, { traceFunctionKey: fn, name: "the original", spans: [{ name: fn, startMs: 0, endMs: 10, input: ["x"] }] });
  await seedReplay(api, { traceFunctionKey: fn, originalTraceId: traceId, name: "replay run", spans: [{ name: fn, startMs: 0, endMs: 10, input: ["x"] }] });
  await signIn(page);
  await page.goto(`/traces?fn=${fn}`);
  await expect(page.getByTestId("trace-count")).toHaveText("1–1 of 1 trace");
  await page.getByRole("link", { name: "Label these 1 in a queue" }).click();
  await expect(page.getByTestId("queue-progress")).toContainText("1 of 1");
  await page.goto(`/traces?fn=${fn}`);
  await page.getByRole("search", { name: "Filter traces" }).getByLabel("Include replays").check();
  await expect(page).toHaveURL(/replays=1/);
  await expect(page.getByTestId("trace-count")).toHaveText("1–2 of 2 traces");
  await page.getByRole("link", { name: "Label these 2 in a queue" }).click();
  await expect(page.getByTestId("queue-progress")).toContainText("1 of 2");
});
