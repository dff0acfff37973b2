// Runs `prisma generate` when the generated client is missing or older than the schema, so that
// `npm start` and `npm test` work on a fresh clone even if npm skipped the postinstall script.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const schema = path.join(root, "prisma", "schema.prisma");
const generated = path.join(root, "server", "generated", "prisma", "client.ts");

export function ensureGenerated() {
  const stale =
    !fs.existsSync(generated) || fs.statSync(generated).mtimeMs < fs.statSync(schema).mtimeMs;
  if (!stale) return;
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("prisma generate failed");
}

if (import.meta.url === `file://${process.argv[1]}`) ensureGenerated();
