// The SDK downloads (docs/sdk-downloads.md) through their route handlers: what each address answers, that every
// artifact carries the server's version, and that each is read back by its ecosystem's own code where that is
// installed (Python's zipfile and the package's build backend, RubyGems, tar). The package tools installing
// them from a running server are in test/system/sdk-install.system.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildGoZip } from "./go-module.ts";
import { buildSdist, buildWheel } from "./python-package.ts";
import { buildGem } from "./ruby-gem.ts";
import { getGoProxy, getSdkFile, getSdkIndex } from "./sdk-dist.http.ts";

const root = path.resolve(__dirname, "..", "..");
const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reprise-sdk-dist-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const request = (p: string, headers: Record<string, string> = {}) => new Request(`http://reprise.test${p}`, { headers: { host: "reprise.test", ...headers } });
const params = (p: string) => ({ params: Promise.resolve({ path: p.split("/") }) });

async function download(p: string): Promise<{ status: number; bytes: Buffer; response: Response }> {
  const response = p.startsWith("/go/") ? await getGoProxy(request(p), params(p.slice(4))) : await getSdkFile(request(p), params(p.slice(5)));
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), response };
}

function save(name: string, bytes: Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function run(command: string, args: string[], cwd = root): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  expect(result.status, `${command} ${args.join(" ")}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

describe("the SDKs a server hands out", () => {
  it("every SDK declares the server's version", () => {
    const read = (p: string) => fs.readFileSync(path.join(root, p), "utf8");
    expect(JSON.parse(read("sdks/typescript/package.json")).version).toBe(version);
    expect(read("sdks/typescript/src/version.ts")).toContain(`SDK_VERSION = "${version}"`);
    expect(read("sdks/python/pyproject.toml")).toMatch(new RegExp(`^version = "${version}"$`, "m"));
    expect(read("sdks/python/src/reprise/_version.py")).toContain(`SDK_VERSION = "${version}"`);
    expect(read("sdks/ruby/lib/reprise/version.rb")).toContain(`VERSION = "${version}"`);
    expect(read("sdks/go/payloads.go")).toMatch(new RegExp(`Version\\s+= "${version}"`));
  });

  it("the READMEs' install commands name this version's files", () => {
    const docs = [`docs/sdk-downloads.md`, ...["", "sdks/typescript/", "sdks/python/", "sdks/ruby/", "sdks/go/"].map((d) => `${d}README.md`)];
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(root, doc), "utf8");
      const files = [...text.matchAll(/\/sdk\/(?:typescript|python|ruby)\/(reprise(?:[-_]sdk)?-(\d[\w.-]*?)(?:-py3-none-any\.whl|\.tar\.gz|\.tgz|\.gem))/g)];
      const modules = [...text.matchAll(/go get github\.com\/reprise\/reprise\/sdks\/go@v(\d[\w.-]*)/g)];
      expect(files.length + modules.length, `${doc} shows an install command`).toBeGreaterThan(0);
      for (const m of [...files.map((f) => f[2]), ...modules.map((g) => g[1])]) expect(m, doc).toBe(version);
    }
  });

  it("GET /sdk names every file and the install commands for the address the client used", async () => {
    const response = await getSdkIndex(request("/sdk", { host: "reprise.example:8080" }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      version,
      files: {
        typescript: `http://reprise.example:8080/sdk/typescript/reprise-sdk-${version}.tgz`,
        pythonWheel: `http://reprise.example:8080/sdk/python/reprise_sdk-${version}-py3-none-any.whl`,
        pythonSdist: `http://reprise.example:8080/sdk/python/reprise_sdk-${version}.tar.gz`,
        ruby: `http://reprise.example:8080/sdk/ruby/reprise-${version}.gem`,
      },
      go: { proxy: "http://reprise.example:8080/go", module: "github.com/reprise/reprise/sdks/go", version: `v${version}` },
      commands: {
        typescript: `npm install http://reprise.example:8080/sdk/typescript/reprise-sdk-${version}.tgz`,
        python: `pip install http://reprise.example:8080/sdk/python/reprise_sdk-${version}-py3-none-any.whl`,
        ruby: `curl -fsSLO http://reprise.example:8080/sdk/ruby/reprise-${version}.gem && gem install --local reprise-${version}.gem`,
        go: `GOPROXY=http://reprise.example:8080/go,direct GONOSUMDB=github.com/reprise/reprise/sdks/go go get github.com/reprise/reprise/sdks/go@v${version}`,
      },
    });
  });

  it("answers another version, another file or a bad path with a JSON 404 naming what it serves", async () => {
    for (const p of ["/sdk/python/reprise_sdk-9.9.9-py3-none-any.whl", "/sdk/ruby/../../package.json", "/sdk/typescript", "/sdk/x%00y"]) {
      const { status, bytes } = await download(p);
      expect(status, p).toBe(404);
      const body = JSON.parse(bytes.toString("utf8"));
      expect(body.code).toBe("not_found");
      expect(body.error).toContain(`/sdk/ruby/reprise-${version}.gem`);
    }
  });

  it("builds every artifact to the same bytes each time, and answers an unchanged one with 304", async () => {
    expect(buildWheel().equals(buildWheel())).toBe(true);
    expect(buildSdist().equals(buildSdist())).toBe(true);
    expect(buildGem().equals(buildGem())).toBe(true);
    expect(buildGoZip(version).equals(buildGoZip(version))).toBe(true);
    const p = `/sdk/ruby/reprise-${version}.gem`;
    const first = await download(p);
    const etag = first.response.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await getSdkFile(request(p, { "if-none-match": etag }), params(p.slice(5)));
    expect(again.status).toBe(304);
  });

  it.runIf(has("python3"))("serves the wheel its own build backend makes: same files, same metadata, every RECORD hash true", async () => {
    const { status, bytes, response } = await download(`/sdk/python/reprise_sdk-${version}-py3-none-any.whl`);
    expect(status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const served = save("served.whl", bytes);
    const built = fs.mkdtempSync(path.join(tmp, "backend-"));
    const script = [
      "import sys, zipfile, hashlib, base64, json",
      "sys.path.insert(0, 'sdks/python/build_backend')",
      "import reprise_build",
      "ours = zipfile.ZipFile(sys.argv[1]); theirs = zipfile.ZipFile(sys.argv[2] + '/' + reprise_build.build_wheel(sys.argv[2]))",
      "assert ours.testzip() is None",
      "info = [n for n in ours.namelist() if n.endswith('.dist-info/RECORD')][0]",
      "for line in ours.read(info).decode().splitlines():",
      "    name, digest, size = line.split(',')",
      "    if name == info: continue",
      "    data = ours.read(name)",
      "    assert digest == 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode(), name",
      "    assert int(size) == len(data), name",
      "assert ours.namelist() == theirs.namelist(), (ours.namelist(), theirs.namelist())",
      "for n in ours.namelist(): assert ours.read(n) == theirs.read(n), n",
      "print(json.dumps(ours.namelist()))",
    ].join("\n");
    const names = JSON.parse(run("python3", ["-c", script, served, built])) as string[];
    expect(names).toContain("reprise/__init__.py");
    expect(names).toContain("reprise/py.typed");
    expect(names).toContain(`reprise_sdk-${version}.dist-info/METADATA`);
    expect(names.some((n) => n.includes("__pycache__") || n.endsWith(".pyc"))).toBe(false);
  });

  it.runIf(has("tar"))("serves the sdist with its metadata, its sources and the backend that builds it offline", async () => {
    const { status, bytes } = await download(`/sdk/python/reprise_sdk-${version}.tar.gz`);
    expect(status).toBe(200);
    const names = run("tar", ["-tzf", save("served.tar.gz", bytes)]).trim().split("\n");
    const base = `reprise_sdk-${version}`;
    expect(names).toEqual(expect.arrayContaining([`${base}/PKG-INFO`, `${base}/pyproject.toml`, `${base}/README.md`, `${base}/build_backend/reprise_build.py`, `${base}/src/reprise/__init__.py`]));
    const pkgInfo = run("tar", ["-xzOf", path.join(tmp, "served.tar.gz"), `${base}/PKG-INFO`]);
    expect(pkgInfo).toMatch(new RegExp(`^Name: reprise-sdk\nVersion: ${version.replace(/\./g, "\\.")}\n`, "m"));
  });

  it.runIf(has("ruby"))("serves a gem whose specification is the gemspec's, with checksums RubyGems verifies", async () => {
    const { status, bytes } = await download(`/sdk/ruby/reprise-${version}.gem`);
    expect(status).toBe(200);
    const gem = save(`reprise-${version}.gem`, bytes);
    const script = [
      'require "rubygems/package"; require "json"',
      "package = Gem::Package.new(ARGV[0]); package.verify; served = package.spec",
      'source = Dir.chdir("sdks/ruby") { Gem::Specification.load("reprise.gemspec") }',
      "fields = %i[name version summary description authors licenses files require_paths metadata required_ruby_version platform]",
      "diff = fields.reject { |f| served.send(f) == source.send(f) }",
      'puts JSON.generate({ diff: diff, version: served.version.to_s, files: served.files.size, contents: package.contents.sort == source.files.sort })',
    ].join("\n");
    const result = JSON.parse(run("ruby", ["-e", script, gem])) as { diff: string[]; version: string; files: number; contents: boolean };
    expect(result).toEqual({ diff: [], version, files: expect.any(Number), contents: true });
    expect(result.files).toBeGreaterThan(10);
  });

  it("speaks the Go module proxy protocol for the Go SDK alone", async () => {
    const base = "/go/github.com/reprise/reprise/sdks/go/@v";
    expect((await download(`${base}/list`)).bytes.toString()).toBe(`v${version}\n`);
    const info = JSON.parse((await download(`${base}/v${version}.info`)).bytes.toString());
    expect(info).toEqual({ Version: `v${version}`, Time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(JSON.parse((await download("/go/github.com/reprise/reprise/sdks/go/@latest")).bytes.toString())).toEqual(info);
    expect((await download(`${base}/v${version}.mod`)).bytes.toString()).toBe(fs.readFileSync(path.join(root, "sdks/go/go.mod"), "utf8"));
    // The go command asks for every prefix of the path it was given; those, other modules and versions are 404s.
    for (const p of [`/go/github.com/reprise/reprise/sdks/@v/v${version}.info`, `/go/github.com/reprise/reprise/sdks/go/@v/v9.9.9.zip`, "/go/example.com/other/@v/list", "/go/github.com/reprise/reprise/sdks/go/@v/"]) {
      const { status, bytes } = await download(p);
      expect(status, p).toBe(404);
      expect(JSON.parse(bytes.toString()).code).toBe("not_found");
    }
  });

  it.runIf(has("python3"))("zips the Go module with every file under <module>@<version>/ and no nested module", async () => {
    const { status, bytes } = await download(`/go/github.com/reprise/reprise/sdks/go/@v/v${version}.zip`);
    expect(status).toBe(200);
    const names = JSON.parse(run("python3", ["-c", "import sys, zipfile, json; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(json.dumps(z.namelist()))", save("go.zip", bytes)])) as string[];
    const prefix = `github.com/reprise/reprise/sdks/go@v${version}/`;
    expect(names.every((n) => n.startsWith(prefix))).toBe(true);
    expect(names).toEqual(expect.arrayContaining([`${prefix}go.mod`, `${prefix}client.go`, `${prefix}examples/quickstart/main.go`]));
    expect(names.filter((n) => n.endsWith("/go.mod"))).toEqual([`${prefix}go.mod`]);
  });

  it.runIf(fs.existsSync(path.join(root, "sdks/typescript/dist/esm/index.js")))("packs the built TypeScript SDK as npm pack does, under package/", async () => {
    const { status, bytes } = await download(`/sdk/typescript/reprise-sdk-${version}.tgz`);
    expect(status).toBe(200);
    const names = run("tar", ["-tzf", save("sdk.tgz", bytes)]).trim().split("\n");
    expect(names).toEqual(expect.arrayContaining(["package/package.json", "package/dist/esm/index.js", "package/dist/cjs/index.js", "package/dist/esm/index.d.ts", "package/README.md"]));
    expect(names.every((n) => n.startsWith("package/") && !n.includes(".build-fingerprint") && !n.includes("/src/"))).toBe(true);
  });
});
