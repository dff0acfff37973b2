// The Ruby SDK as `gem install` reads it: a plain tar of metadata.gz (the gemspec as YAML), data.tar.gz (the
// files) and checksums.yaml.gz, as `gem build` makes it from sdks/ruby/reprise.gemspec.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ENTRY_TIME, gzip, tar } from "./archives.ts";
import { listFiles, sdkDir } from "./sources.ts";

/** What the gemspec says, as read by `readGemspec`. */
export interface TGemspec {
  name: string;
  version: string;
  summary: string;
  description: string;
  authors: string[];
  licenses: string[];
  requiredRubyVersion: [string, string];
  files: string[];
  requirePaths: string[];
  metadata: Record<string, string>;
}

const rubyString = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, "$1");
const strings = (expr: string) => [...expr.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => rubyString(`"${m[1]}"`));

/**
 * Reads the `spec.<field> = …` assignments of a gemspec: string literals (joined across `\` line ends),
 * string arrays, `Dir[…]` globs and `Reprise::VERSION`. Anything else is refused rather than guessed.
 */
export function readGemspec(text: string, version: string): Omit<TGemspec, "files"> & { fileGlobs: string[] } {
  const joined = text.replace(/"\s*\\\n\s*"/g, "");
  const fields = new Map<string, string>();
  const metadata: Record<string, string> = {};
  for (const m of joined.matchAll(/^\s*spec\.(\w+)(?:\["([^"]+)"\])?\s*=\s*(.+)$/gm)) {
    if (m[2]) metadata[m[2]] = strings(m[3]!)[0] ?? "";
    else fields.set(m[1]!, m[3]!.trim());
  }
  const one = (key: string) => {
    const expr = fields.get(key);
    if (expr === undefined) return "";
    if (!/^"(?:[^"\\]|\\.)*"$/.test(expr)) throw new Error(`reprise.gemspec: spec.${key} is not a string literal`);
    return strings(expr)[0]!;
  };
  const list = (key: string) => {
    const expr = fields.get(key);
    if (expr === undefined) return [];
    if (!/^(Dir)?\[.*\]$/.test(expr)) throw new Error(`reprise.gemspec: spec.${key} is not a list of strings`);
    return strings(expr);
  };
  const versionExpr = fields.get("version");
  if (versionExpr !== "Reprise::VERSION") throw new Error("reprise.gemspec: spec.version is not Reprise::VERSION");
  const requirement = /^(>=|>|=|~>|<=|<)?\s*(\S+)$/.exec(one("required_ruby_version")) ?? [];
  return {
    name: one("name"),
    version,
    summary: one("summary"),
    description: one("description"),
    authors: list("authors"),
    licenses: fields.has("license") ? [one("license")] : list("licenses"),
    requiredRubyVersion: [requirement[1] ?? ">=", requirement[2] ?? "0"],
    fileGlobs: list("files"),
    requirePaths: list("require_paths"),
    metadata,
  };
}

/** A Dir[] pattern as a regular expression over relative paths (`**` any folders, `*` within one). */
function globPattern(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*|\?)/)
    .map((part) => (part === "**/" ? "(?:.*/)?" : part === "*" ? "[^/]*" : part === "?" ? "[^/]" : part.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${body}$`);
}

/** `Reprise::VERSION` from lib/reprise/version.rb. */
export function rubyVersion(dir: string): string {
  const text = fs.readFileSync(path.join(dir, "lib", "reprise", "version.rb"), "utf8");
  const m = /VERSION\s*=\s*"([^"]+)"/.exec(text);
  if (!m) throw new Error("lib/reprise/version.rb: no VERSION");
  return m[1]!;
}

export const gemFileName = (version: string): string => `reprise-${version}.gem`;

/** A YAML single-quoted scalar (Psych reads it back verbatim). */
const q = (value: string) => `'${value.replace(/'/g, "''")}'`;

function gemspecYaml(spec: TGemspec): string {
  const version = (v: string) => `!ruby/object:Gem::Version\n  version: ${q(v)}`;
  const requirement = ([op, v]: [string, string]) =>
    `!ruby/object:Gem::Requirement\n  requirements:\n  - - ${q(op)}\n    - !ruby/object:Gem::Version\n      version: ${q(v)}`;
  const items = (values: string[]) => (values.length ? `\n${values.map((v) => `- ${q(v)}`).join("\n")}` : " []");
  const metadata = Object.entries(spec.metadata);
  return [
    "--- !ruby/object:Gem::Specification",
    `name: ${q(spec.name)}`,
    `version: ${version(spec.version)}`,
    "platform: ruby",
    `authors:${items(spec.authors)}`,
    "autorequire:",
    "bindir: bin",
    "cert_chain: []",
    `date: ${ENTRY_TIME.toISOString().slice(0, 10)} 00:00:00.000000000 Z`,
    "dependencies: []",
    `description: ${q(spec.description)}`,
    "email:",
    "executables: []",
    "extensions: []",
    "extra_rdoc_files: []",
    `files:${items(spec.files)}`,
    "homepage:",
    `licenses:${items(spec.licenses)}`,
    `metadata:${metadata.length ? `\n${metadata.map(([k, v]) => `  ${k}: ${q(v)}`).join("\n")}` : " {}"}`,
    "post_install_message:",
    "rdoc_options: []",
    `require_paths:${items(spec.requirePaths)}`,
    `required_ruby_version: ${requirement(spec.requiredRubyVersion)}`,
    `required_rubygems_version: ${requirement([">=", "0"])}`,
    "requirements: []",
    "rubygems_version: 3.3.15",
    "signing_key:",
    "specification_version: 4",
    `summary: ${q(spec.summary)}`,
    "test_files: []",
    "",
  ].join("\n");
}

export function buildGem(): Buffer {
  const dir = sdkDir("ruby");
  const { fileGlobs, ...spec } = readGemspec(fs.readFileSync(path.join(dir, "reprise.gemspec"), "utf8"), rubyVersion(dir));
  const patterns = fileGlobs.map(globPattern);
  const files = listFiles(dir, (rel) => patterns.some((p) => p.test(rel)));
  const metadata = gzip(Buffer.from(gemspecYaml({ ...spec, files: files.map((f) => f.path) })));
  const data = gzip(tar(files));
  const digest = (algorithm: string, b: Buffer) => crypto.createHash(algorithm).update(b).digest("hex");
  const checksums = ["---", ...["SHA256", "SHA512"].flatMap((a) => [`${a}:`, `  metadata.gz: ${digest(a, metadata)}`, `  data.tar.gz: ${digest(a, data)}`]), ""].join("\n");
  return tar([
    { path: "metadata.gz", data: metadata },
    { path: "data.tar.gz", data },
    { path: "checksums.yaml.gz", data: gzip(Buffer.from(checksums)) },
  ]);
}
