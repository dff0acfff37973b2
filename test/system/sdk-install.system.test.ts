// Each SDK installed from a running Reprise with its language's own package tool, into a clean folder, as
// docs/sdk-downloads.md tells a user: npm from the tarball address, pip (offline, in a new venv) from the wheel
// and from the sdist, gem from the downloaded .gem, and go through the server's module proxy. Each then sends
// a trace to the same server, which reads back completed. A language whose toolchain is missing is skipped
// with one line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, inject, it } from "vitest";
import { runToEnd } from "./server-process.ts";

const root = path.resolve(__dirname, "..", "..");
const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const hasVenv = has("python3") && spawnSync("python3", ["-c", "import venv, ensurepip"]).status === 0;
const tools = { npm: has("npm"), python: hasVenv, ruby: has("ruby") && has("gem"), go: has("go") };
for (const [tool, found] of Object.entries(tools)) {
  if (!found) console.log(`(skipping the ${tool} install from a running Reprise: ${tool === "python" ? "python3 with venv" : tool} not found)`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-sdk-install-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A new empty folder for one install. */
const cleanDir = (name: string) => fs.mkdtempSync(path.join(work, `${name}-`));

describe("installing each SDK from a running Reprise", () => {
  const { baseUrl, apiKey } = inject("reprise");
  const sdkEnv = (traceFunction: string) => ({ ...process.env, REPRISE_URL: baseUrl, REPRISE_API_KEY: apiKey, REPRISE_EXAMPLE_TRACE_FUNCTION: traceFunction });

  /** Runs a command that must succeed; returns its output. */
  async function ok(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
    const { code, output } = await runToEnd(command, args, { cwd, env });
    expect(code, `${command} ${args.join(" ")}\n${output}`).toBe(0);
    return output;
  }

  /**
   * The trace id a script printed as `{"traceId": "…"}` reads back completed under its function (the output holds
   * stderr too, so the line is found rather than taken last).
   */
  async function expectRecorded(output: string, traceFunction: string, spanCount: number): Promise<void> {
    const line = output.split("\n").find((l) => /^\{"traceId": ?"/.test(l)) ?? "";
    const { traceId } = JSON.parse(line) as { traceId: string };
    expect(traceId).toMatch(/^[0-9a-f-]{36}$/);
    const res = await fetch(`${baseUrl}/api/sdk/traces/${traceId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    const { trace } = (await res.json()) as { trace: Record<string, unknown> };
    expect(trace).toMatchObject({ id: traceId, traceFunctionKey: traceFunction, status: "completed", spanCount });
  }

  it("GET /sdk gives this server's version and the commands used below", async () => {
    const res = await fetch(`${baseUrl}/sdk`);
    expect(res.status).toBe(200);
    const index = (await res.json()) as { version: string; commands: Record<string, string> };
    expect(index.version).toBe(version);
    expect(index.commands.typescript).toBe(`npm install ${baseUrl}/sdk/typescript/reprise-sdk-${version}.tgz`);
    expect(index.commands.python).toBe(`pip install ${baseUrl}/sdk/python/reprise_sdk-${version}-py3-none-any.whl`);
  });

  it.runIf(tools.npm)("npm installs the tarball, and the SDK sends a trace", async () => {
    const dir = cleanDir("npm");
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "sdk-install-check", version: "1.0.0", private: true, type: "module" }));
    // The SDK's own dependencies (OpenTelemetry, superjson) come from the npm registry, as for any package.
    await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `${baseUrl}/sdk/typescript/reprise-sdk-${version}.tgz`], dir);
    const installed = JSON.parse(fs.readFileSync(path.join(dir, "node_modules/@reprise/sdk/package.json"), "utf8")) as { version: string };
    expect(installed.version).toBe(version);
    fs.writeFileSync(
      path.join(dir, "send.mjs"),
      [
        'import { Reprise } from "@reprise/sdk";',
        "const reprise = new Reprise();",
        "const answer = reprise.withTrace(process.env.REPRISE_EXAMPLE_TRACE_FUNCTION, async (q) => ({ answer: `echo: ${q}`, traceId: reprise.getCurrentTrace().id }));",
        'const { traceId } = await answer("What is Reprise?");',
        "if (!(await reprise.flushTraces())) process.exit(1);",
        "await reprise.close();",
        "console.log(JSON.stringify({ traceId }));",
      ].join("\n"),
    );
    const fn = `npm-install-${Date.now()}`;
    await expectRecorded(await ok(process.execPath, ["send.mjs"], dir, sdkEnv(fn)), fn, 1);
  });

  it.runIf(tools.python)("pip installs the wheel and the sdist offline into new venvs, and the SDK sends a trace", async () => {
    for (const file of [`reprise_sdk-${version}-py3-none-any.whl`, `reprise_sdk-${version}.tar.gz`]) {
      const dir = cleanDir("pip");
      await ok("python3", ["-m", "venv", "venv"], dir);
      // --no-index: nothing comes from PyPI, not even a build backend for the sdist.
      await ok(path.join(dir, "venv/bin/pip"), ["install", "--no-index", "--disable-pip-version-check", `${baseUrl}/sdk/python/${file}`], dir);
      fs.copyFileSync(path.join(root, "sdks/python/examples/quickstart.py"), path.join(dir, "quickstart.py"));
      const fn = `pip-install-${file.endsWith(".whl") ? "wheel" : "sdist"}-${Date.now()}`;
      const env = { ...sdkEnv(fn), PYTHONPATH: "", PYTHONNOUSERSITE: "1" };
      const version_ = await ok(path.join(dir, "venv/bin/python"), ["-c", 'import importlib.metadata as m; print(m.version("reprise-sdk"))'], dir, env);
      expect(version_.trim()).toBe(version);
      await expectRecorded(await ok(path.join(dir, "venv/bin/python"), ["quickstart.py"], dir, env), fn, 3);
    }
  });

  it.runIf(tools.ruby)("gem installs the downloaded .gem with --local, and the SDK sends a trace", async () => {
    const dir = cleanDir("gem");
    const res = await fetch(`${baseUrl}/sdk/ruby/reprise-${version}.gem`);
    expect(res.status).toBe(200);
    fs.writeFileSync(path.join(dir, `reprise-${version}.gem`), Buffer.from(await res.arrayBuffer()));
    const gems = path.join(dir, "gems");
    const env = { ...process.env, GEM_HOME: gems, GEM_PATH: gems, RUBYLIB: "", RUBYOPT: "" };
    await ok("gem", ["install", "--local", "--no-document", `reprise-${version}.gem`], dir, env);
    fs.copyFileSync(path.join(root, "sdks/ruby/examples/quickstart.rb"), path.join(dir, "quickstart.rb"));
    const fn = `gem-install-${Date.now()}`;
    const output = await ok("ruby", ["quickstart.rb"], dir, { ...sdkEnv(fn), ...env });
    await expectRecorded(output, fn, 3);
    const spec = await ok("gem", ["list", "reprise", "--exact"], dir, env);
    expect(spec).toContain(`reprise (${version})`);
  });

  it.runIf(tools.go)("go gets the module through the server's proxy into a new module, and go run sends a trace", async () => {
    const dir = cleanDir("go");
    const module = "github.com/reprise/reprise/sdks/go";
    const env = {
      ...process.env,
      GOPATH: path.join(dir, "gopath"),
      GOMODCACHE: path.join(dir, "gopath/pkg/mod"),
      GOPROXY: `${baseUrl}/go`,
      GOFLAGS: "-mod=mod -modcacherw",
      GONOSUMDB: module,
      GOSUMDB: "off",
      GOWORK: "off",
    };
    const app = path.join(dir, "app");
    fs.mkdirSync(app);
    await ok("go", ["mod", "init", "example.com/sdk-install-check"], app, env);
    await ok("go", ["get", `${module}@v${version}`], app, env);
    expect(fs.readFileSync(path.join(app, "go.mod"), "utf8")).toContain(`${module} v${version}`);
    fs.copyFileSync(path.join(root, "sdks/go/examples/quickstart/main.go"), path.join(app, "main.go"));
    const fn = `go-install-${Date.now()}`;
    const { code, output } = await runToEnd("go", ["run", "."], { cwd: app, env: { ...sdkEnv(fn), ...env } });
    expect(code, output).toBe(0);
    await expectRecorded(output, fn, 3);
  });
});
