// The Python SDK as pip installs it: a wheel (`py3-none-any`: a zip of the package with its .dist-info) and an
// sdist (the sources under `<name>-<version>/` with PKG-INFO), both made as the package's own build backend
// (sdks/python/build_backend/reprise_build.py) makes them, so the sdist builds offline with that backend.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzip, tar, zip, type TArchiveFile } from "./archives.ts";
import { listFiles, sdkDir, under } from "./sources.ts";

interface TPyProject {
  name: string;
  version: string;
  description?: string;
  readme?: string;
  license?: Record<string, string>;
  requiresPython?: string;
  dependencies: string[];
  classifiers: string[];
}

const STRING = /"((?:[^"\\]|\\.)*)"/g;

/** The [project] table's plain strings and string lists (all this project's pyproject.toml uses). */
export function readPyProject(text: string): TPyProject {
  const table = /^\[project\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  const values = new Map<string, string>();
  for (const m of table.matchAll(/^([A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|\[[\s\S]*?\]|\{[\s\S]*?\})/gm)) values.set(m[1]!, m[2]!);
  const strings = (key: string) => [...(values.get(key) ?? "").matchAll(STRING)].map((m) => m[1]!);
  const license = values.get("license");
  return {
    name: strings("name")[0] ?? "",
    version: strings("version")[0] ?? "",
    description: strings("description")[0],
    readme: values.get("readme")?.startsWith('"') ? strings("readme")[0] : undefined,
    license: license?.startsWith("{") ? Object.fromEntries([...license.matchAll(/([A-Za-z-]+)\s*=\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!])) : undefined,
    requiresPython: strings("requires-python")[0],
    dependencies: strings("dependencies"),
    classifiers: strings("classifiers"),
  };
}

/** PEP 503/625 normal form of a distribution name in file names: `reprise-sdk` → `reprise_sdk`. */
const distName = (name: string) => name.replace(/[-_.]+/g, "_").toLowerCase();

function pythonProject(): { dir: string; project: TPyProject } {
  const dir = sdkDir("python");
  return { dir, project: readPyProject(fs.readFileSync(path.join(dir, "pyproject.toml"), "utf8")) };
}

/** The file names of the wheel and the sdist of a version. */
export function pythonFileNames(version: string): { wheel: string; sdist: string } {
  const name = distName(pythonProject().project.name);
  return { wheel: `${name}-${version}-py3-none-any.whl`, sdist: `${name}-${version}.tar.gz` };
}

/** METADATA (in the wheel) and PKG-INFO (in the sdist): core metadata 2.1 with the README as description. */
function coreMetadata(dir: string, project: TPyProject): Buffer {
  const lines = ["Metadata-Version: 2.1", `Name: ${project.name}`, `Version: ${project.version}`, `Summary: ${project.description ?? ""}`];
  if (project.license?.text) lines.push(`License: ${project.license.text}`);
  if (project.requiresPython) lines.push(`Requires-Python: ${project.requiresPython}`);
  lines.push(...project.dependencies.map((d) => `Requires-Dist: ${d}`), ...project.classifiers.map((c) => `Classifier: ${c}`));
  let body = "";
  if (project.readme) {
    lines.push("Description-Content-Type: text/markdown");
    body = fs.readFileSync(path.join(dir, project.readme), "utf8");
  }
  return Buffer.from(`${lines.join("\n")}\n\n${body}`);
}

const packageFiles = (dir: string) => under("reprise", listFiles(path.join(dir, "src", "reprise"), () => true));

const recordHash = (data: Buffer) => `sha256=${crypto.createHash("sha256").update(data).digest("base64url")}`;

export function buildWheel(): Buffer {
  const { dir, project } = pythonProject();
  const info = `${distName(project.name)}-${project.version}.dist-info`;
  const files: TArchiveFile[] = [
    ...packageFiles(dir),
    { path: `${info}/METADATA`, data: coreMetadata(dir, project) },
    { path: `${info}/WHEEL`, data: Buffer.from("Wheel-Version: 1.0\nGenerator: reprise_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n") },
    { path: `${info}/top_level.txt`, data: Buffer.from("reprise\n") },
  ];
  const record = files.map((f) => `${f.path},${recordHash(f.data)},${f.data.length}\n`).join("") + `${info}/RECORD,,\n`;
  files.push({ path: `${info}/RECORD`, data: Buffer.from(record) });
  return zip(files);
}

export function buildSdist(): Buffer {
  const { dir, project } = pythonProject();
  const files: TArchiveFile[] = [{ path: "pyproject.toml", data: fs.readFileSync(path.join(dir, "pyproject.toml")) }];
  if (project.readme) files.push({ path: project.readme, data: fs.readFileSync(path.join(dir, project.readme)) });
  files.push(
    ...under("build_backend", listFiles(path.join(dir, "build_backend"), (rel) => rel.endsWith(".py"))),
    ...under("src", packageFiles(dir)),
    { path: "PKG-INFO", data: coreMetadata(dir, project) },
  );
  return gzip(tar(under(`${distName(project.name)}-${project.version}`, files)));
}
