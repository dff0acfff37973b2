// The native OpenTelemetry door in the console (docs/otel.md): a trace sent as plain OpenTelemetry GenAI
// spans to /v1/traces (no Reprise SDK) completes after the quiet period, lists like any trace, says where
// it came from, shows its LLM span's messages, model and tokens, and takes a verdict.
import { randomBytes } from "node:crypto";
import { expect, expectNoCriticalA11yViolations, screenshot, signIn, test } from "./fixtures.ts";

const attrs = (o: Record<string, string | number>) =>
  Object.entries(o).map(([key, v]) => ({ key, value: typeof v === "number" ? { intValue: String(v) } : { stringValue: v } }));
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

test("an OpenTelemetry GenAI trace completes, says where it came from, shows its messages and takes a verdict", async ({ page, api }) => {
  const traceId = randomBytes(16).toString("hex");
  const root = randomBytes(8).toString("hex");
  const t0 = Date.now() - 2000;
  const res = await api.post("/v1/traces", {
    headers: { "content-type": "application/json" },
    data: {
      resourceSpans: [{
        resource: { attributes: attrs({ "service.name": "otel-weather-bot" }) },
        scopeSpans: [{
          scope: { name: "@opentelemetry/instrumentation-openai", version: "0.21.0" },
          spans: [
            { traceId, spanId: root, name: "Weather question from OpenTelemetry", kind: 2, startTimeUnixNano: nanos(t0), endTimeUnixNano: nanos(t0 + 900), attributes: [] },
            {
              traceId, spanId: randomBytes(8).toString("hex"), parentSpanId: root, name: "chat gpt-4o-mini", kind: 3,
              startTimeUnixNano: nanos(t0 + 100), endTimeUnixNano: nanos(t0 + 800),
              attributes: attrs({
                "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini", "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
                "gen_ai.usage.input_tokens": 31, "gen_ai.usage.output_tokens": 9,
                "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Is it raining in Oslo?" }] }]),
                "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "No, it is sunny in Oslo." }], finish_reason: "stop" }]),
              }),
            },
          ],
        }],
      }],
    },
  });
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({});

  // Completed once the root arrived and the quiet period passed (REPRISE_OTEL_QUIET_SECONDS in playwright.config.ts).
  await expect.poll(async () => {
    const list = await (await api.get("/api/sdk/traces?traceFunctionKey=otel-weather-bot")).json();
    return list.traces[0]?.status;
  }, { timeout: 30_000 }).toBe("completed");

  await signIn(page);
  // Once the page's own script has drawn the count, the search box is live (not a pre-hydration field).
  await expect(page.getByTestId("trace-count")).toHaveText(/traces?$/);
  const search = page.getByRole("search", { name: "Filter traces" }).getByLabel("Search", { exact: true });
  await search.fill("Weather question");
  await search.press("Enter");
  const link = page.getByRole("link", { name: "Weather question from OpenTelemetry" });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByRole("heading", { name: "Weather question from OpenTelemetry", level: 1 })).toBeVisible();
  await expect(page.getByText("OpenTelemetry · GenAI semantic conventions")).toBeVisible();
  await expect(page.getByText("gpt-4o-mini-2024-07-18").first()).toBeVisible();

  await page.getByRole("list", { name: "Span tree" }).getByRole("button", { name: /chat gpt-4o-mini/ }).click();
  const panel = page.getByRole("region", { name: "Span chat gpt-4o-mini" });
  await expect(panel.getByText("Is it raining in Oslo?", { exact: false })).toBeVisible();
  await expect(panel.getByText("No, it is sunny in Oslo.", { exact: false })).toBeVisible();
  await expectNoCriticalA11yViolations(page);
  await screenshot(page, "otel-trace");

  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("p");
  await expect(page.getByRole("region", { name: "Whole trace" }).getByTestId("current-verdict")).toContainText("pass");
});
