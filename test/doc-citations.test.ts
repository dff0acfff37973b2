// Comments and docs cite the project's own documentation (docs/…, README.md), never documents kept outside the
// repository, and never issue numbers: a reader of the repository must be able to open what is cited. A cited
// section in quotes (`docs/api/datasets.md, "Paging"`) must be a heading or a bold bullet of that file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const SKIPPED_DIRS = new Set([
  "node_modules", ".git", ".next", ".data", ".venv", "venv", "__pycache__", "dist", "build", "target", "vendor",
  "test-results", "playwright-report", "generated",
]);
// Applied migrations are checksummed at start (docs/architecture.md, "Storage"): their text never changes.
const SKIPPED_PATHS = ["prisma/migrations/", "test/doc-citations.test.ts"];
const TEXT_FILE = /\.(ts|tsx|mts|mjs|cjs|js|md|prisma|proto|sql|py|go|rb|json|ya?ml|toml|sh|css)$/;
const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /http-interface(\.md)?|wire-facts|mcp-contract|\bdecisions\.md|\bSTYLE\.md/, why: "cites a document outside the repository" },
  { pattern: /\bissues? #?\d+\b/i, why: "cites an issue number" },
  // A merge's conflict markers committed by mistake (a Markdown file has no compiler to catch them).
  { pattern: /^(<{7}|>{7})( |$)/, why: "holds a merge conflict marker" },
];

/** `<file>.md, "<section>"` (also `<file>.md ("<section>")`), the form citations of a section take. */
const SECTION_CITATION = /\b((?:docs\/|sdks\/|bench\/)[\w./-]+\.md|README\.md),?\s*\(?"([^"]+)"/g;

const sectionsOf = new Map<string, string[] | null>();
/** The headings and bold bullet labels of a Markdown file, lowercased; null when there is no such file. */
function sections(file: string): string[] | null {
  if (!sectionsOf.has(file)) {
    const text = existsSync(file) ? readFileSync(file, "utf8") : null;
    sectionsOf.set(
      file,
      text === null
        ? null
        : [
            ...text.split("\n").filter((l) => l.startsWith("#")).map((l) => l.replace(/^#+\s*/, "")),
            ...[...text.matchAll(/^\s*(?:[-*]|\d+\.)\s+\*\*([^*]+?)\.?\*\*/gm)].map((m) => m[1]),
          ].map((label) => label.trim().toLowerCase()),
    );
  }
  return sectionsOf.get(file) ?? null;
}

/** Whether `section` names a heading or bullet of `doc`, cited from `from` (paths from the root, else from `from`). */
function sectionExists(doc: string, section: string, from: string): boolean {
  const wanted = section.toLowerCase();
  return [path.join(ROOT, doc), path.join(path.dirname(from), doc)].some((file) =>
    (sections(file) ?? []).some((label) => label.includes(wanted)),
  );
}

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* files(path.join(dir, entry.name));
    } else if (entry.isFile() && TEXT_FILE.test(entry.name)) {
      yield path.join(dir, entry.name);
    }
  }
}

describe("citations", () => {
  it("cite only the repository's own docs and sections they have, and no issue numbers", () => {
    const found: string[] = [];
    for (const file of files(ROOT)) {
      const relative = path.relative(ROOT, file).split(path.sep).join("/");
      if (SKIPPED_PATHS.some((skipped) => relative.startsWith(skipped)) || relative === "package-lock.json") continue;
      const lines = readFileSync(file, "utf8").split("\n");
      lines.forEach((line, index) => {
        for (const { pattern, why } of FORBIDDEN) {
          if (pattern.test(line)) found.push(`${relative}:${index + 1} ${why}: ${line.trim().slice(0, 120)}`);
        }
        for (const [, doc, section] of line.matchAll(SECTION_CITATION)) {
          if (!sectionExists(doc, section, file)) found.push(`${relative}:${index + 1} cites a section ${doc} does not have: "${section}"`);
        }
      });
    }
    expect(found, "cite a docs/ section instead (add one when none states the rule)").toEqual([]);
  });
});
