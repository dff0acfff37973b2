// Where the SDKs' sources are read from, and the version every artifact carries: the server's own
// (package.json), so an SDK installed from an instance is the one that instance was built with.
import fs from "node:fs";
import path from "node:path";
import type { TArchiveFile } from "./archives.ts";

/** The repository the server runs from (`npm start` and the tests run in it). */
export const repoRoot = (): string => process.cwd();

/** The folder of one SDK's sources, `sdks/<language>`. */
export const sdkDir = (language: "typescript" | "python" | "ruby" | "go"): string => path.join(repoRoot(), "sdks", language);

let version: string | undefined;

/** The server's version, from its package.json. */
export function serverVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }).version;
  return version;
}

/** Files and folders no artifact ships: bytecode caches, editor and OS litter, version control. */
const NEVER = /(^|\/)(__pycache__|\.git|\.hg|\.svn|\.bzr|node_modules|\.DS_Store)(\/|$)|\.py[co]$/;

/**
 * The regular files under `dir` (relative paths with forward slashes, sorted) that `keep` accepts; symbolic
 * links are not followed. `skipDir` may prune a folder and everything in it.
 */
export function listFiles(dir: string, keep: (rel: string) => boolean, skipDir: (rel: string, abs: string) => boolean = () => false): TArchiveFile[] {
  const out: TArchiveFile[] = [];
  const visit = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = path.join(abs, entry.name);
      if (NEVER.test(childRel)) continue;
      if (entry.isDirectory()) {
        if (!skipDir(childRel, childAbs)) visit(childAbs, childRel);
      } else if (entry.isFile() && keep(childRel)) {
        out.push({ path: childRel, data: fs.readFileSync(childAbs) });
      }
    }
  };
  visit(dir, "");
  return out;
}

/** `files` with `prefix/` before each path. */
export const under = (prefix: string, files: readonly TArchiveFile[]): TArchiveFile[] => files.map((f) => ({ path: `${prefix}/${f.path}`, data: f.data }));
