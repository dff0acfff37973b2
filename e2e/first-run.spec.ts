// The first run in the browser (docs/operations.md, "First run"), from an empty database: a server of its own
// started as `npm start` starts it, with no REPRISE_INIT_* settings. Every page leads to /setup, which needs
// the code the server printed; the form creates the account and shows the key once with a quickstart whose
// curl command, run as printed, sends the trace that turns the page into the trace list. The admin CLI works
// against the running server meanwhile. Checked at phone and desktop sizes with axe.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkAtBothSizes, DESKTOP, E2E, expect, test } from "./fixtures.ts";
// @ts-expect-error: a plain ES module without types
import { nextStartCommand } from "../scripts/start.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const port = E2E.port + 1;
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-e2e-first-run-"));
let server: ChildProcess;
let printedUrl: string;

test.beforeAll(async () => {
  const [node, args] = nextStartCommand(port, {}) as [string, string[]];
  server = spawn(node, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), REPRISE_DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "production", REPRISE_LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  printedUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no setup address printed within 120 s:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/localhost:\d+\/setup\?code=[A-Za-z0-9_-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.on("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 60_000 }).toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("first run: setup code, account, first key, a quickstart trace, then the trace list", async ({ page }) => {
  test.setTimeout(180_000);
  expect(printedUrl).toMatch(new RegExp(`^http://localhost:${port}/setup\\?code=`));
  const setupPath = new URL(printedUrl).pathname + new URL(printedUrl).search;
  await page.setViewportSize(DESKTOP);

  // Every way in leads to /setup, which without the code only says where to find it.
  for (const start of ["/", "/traces", "/datasets", "/sign-in"]) {
    await page.goto(`${base}${start}`);
    await expect(page).toHaveURL(`${base}/setup`);
  }
  await expect(page.getByRole("heading", { name: "A setup code is needed" })).toBeVisible();
  await expect(page.getByText("REPRISE_INIT_ORG_NAME")).toBeVisible();
  await checkAtBothSizes(page, "setup-no-code");
  await page.goto(`${base}/setup?code=not-the-code`);
  await expect(page.getByRole("heading", { name: "This setup code is not valid" })).toBeVisible();

  await page.goto(`${base}${setupPath}`);
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await checkAtBothSizes(page, "setup-form");
  await page.getByLabel("Organization name").fill("Acme");
  await page.getByLabel("Email").fill("owner@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Password must be at least 8 characters." })).toBeVisible();
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { name: "Your first API key" })).toBeVisible();
  const apiKey = (await page.getByLabel("Your API key").textContent())!.trim();
  expect(apiKey).toMatch(/^rp_[A-Za-z0-9_-]{32,}$/);
  const curl = (await page.getByLabel("curl command").textContent())!;
  expect(curl).toContain(`${base}/v1/traces`);
  expect(curl).toContain(`Bearer ${apiKey}`);
  await expect(page.getByLabel("SDK example")).toContainText(`serviceUrl: "${base}", apiKey: "${apiKey}"`);
  // Each SDK installs from this server (docs/sdk-downloads.md); the first command's address answers the tarball.
  const install = (await page.getByLabel("SDK install commands").textContent())!;
  const tarball = /npm install (\S+\.tgz)/.exec(install)?.[1] ?? "";
  expect(tarball).toMatch(new RegExp(`^${base}/sdk/typescript/reprise-sdk-[\\w.-]+\\.tgz$`));
  expect((await page.request.get(tarball)).status()).toBe(200);
  expect(install).toContain(`GOPROXY=${base}/go,direct`);
  await checkAtBothSizes(page, "setup-first-key");

  // The trace list, still empty, shows the first-trace guide with this server's real address.
  const list = await page.context().newPage();
  await list.goto(`${base}/traces`);
  await expect(list.getByRole("heading", { name: "No traces yet" })).toBeVisible();
  // OpenTelemetry (an app's exporter or a Collector) goes to the native door, the server's base URL; the
  // carrier door (/api/sdk/otel) ignores plain spans, so the guide never names it.
  await expect(list.getByLabel("OpenTelemetry exporter settings")).toContainText(`export OTEL_EXPORTER_OTLP_ENDPOINT=${base}\n`);
  await expect(list.getByText("/api/sdk/otel")).toHaveCount(0);
  await list.close();

  // The admin CLI, while this server holds the embedded database, goes through its control channel.
  const admin = spawnSync(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", "create-api-key", "--email", "owner@example.com"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: "", REPRISE_DATA_DIR: dataDir, REPRISE_LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  expect(admin.stderr).toBe("");
  expect(JSON.parse(admin.stdout).apiKey).toMatch(/^rp_/);

  // The quickstart runs as printed; the page then opens the trace list with that trace in it.
  const sent = spawnSync("sh", ["-c", curl], { encoding: "utf8" });
  expect(sent.status, sent.stderr).toBe(0);
  await expect(page).toHaveURL(`${base}/traces`, { timeout: 20_000 });
  await expect(page.getByRole("link", { name: "Hello from curl" })).toBeVisible();

  // Once an organization exists /setup is gone: the printed address leads to sign-in (here: signed in, the
  // console), and /setup itself is not found. The sign-in page no longer leads to /setup.
  await page.goto(`${base}${setupPath}`);
  await expect(page).toHaveURL(`${base}/traces`);
  expect((await page.goto(`${base}/setup`))?.status()).toBe(404);
  await page.context().clearCookies();
  await page.goto(`${base}/`);
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByText("REPRISE_INIT_*")).toBeVisible();
  await page.getByLabel("Email").fill("owner@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});
