// The Go SDK as the go command fetches it from a module proxy (GOPROXY protocol): the version list, the
// version's .info, its go.mod and its zip, whose every file sits under `<module>@<version>/` and which holds
// what golang.org/x/mod/zip would put in it (no nested modules, no version-control folders, no vendor/).
import fs from "node:fs";
import path from "node:path";
import { zip } from "./archives.ts";
import { listFiles, sdkDir, under } from "./sources.ts";

/** The module path, from go.mod's `module` line. */
export function goModulePath(): string {
  const m = /^module\s+(\S+)/m.exec(fs.readFileSync(path.join(sdkDir("go"), "go.mod"), "utf8"));
  if (!m) throw new Error("sdks/go/go.mod has no module line");
  return m[1]!;
}

/** The module's version for a server version: semantic versions carry a `v` in Go. */
export const goVersion = (version: string): string => `v${version}`;

export function goModFile(): Buffer {
  return fs.readFileSync(path.join(sdkDir("go"), "go.mod"));
}

/** The .info document: the version and when its files last changed. */
export function goInfo(version: string): { Version: string; Time: string } {
  let newest = 0;
  for (const file of moduleFiles()) newest = Math.max(newest, fs.statSync(path.join(sdkDir("go"), file.path)).mtimeMs);
  return { Version: goVersion(version), Time: new Date(Math.floor(newest / 1000) * 1000).toISOString().replace(".000Z", "Z") };
}

function moduleFiles() {
  const dir = sdkDir("go");
  // A folder with its own go.mod is another module; vendor/ is never part of a module zip.
  const skipDir = (rel: string, abs: string) => rel === "vendor" || rel.endsWith("/vendor") || fs.existsSync(path.join(abs, "go.mod"));
  return listFiles(dir, () => true, skipDir);
}

export function buildGoZip(version: string): Buffer {
  return zip(under(`${goModulePath()}@${goVersion(version)}`, moduleFiles()));
}

/**
 * Decodes a module path as the proxy protocol escapes it (`!x` for an upper-case X); null when malformed
 * (an upper-case letter or a stray `!`).
 */
export function decodeModulePath(escaped: string): string | null {
  if (/[A-Z]/.test(escaped)) return null;
  let bad = false;
  const decoded = escaped.replace(/!(.?)/g, (_, c: string) => {
    if (!/^[a-z]$/.test(c)) bad = true;
    return c.toUpperCase();
  });
  return bad ? null : decoded;
}
