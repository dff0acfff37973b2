// `npm run db:diff`: the SQL that takes the schema as last committed (git HEAD) to prisma/schema.prisma as it is
// in the working tree: the starting point of a new migration (docs/architecture.md, "Migrations"). Offline: the
// JS schema engine compares the two schema files, no database involved. `-- <git ref>` compares from another
// commit, e.g. `npm run db:diff -- main~3`.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const ref = process.argv[2] ?? "HEAD";
const before = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "reprise-db-diff-")), "schema.prisma");
fs.writeFileSync(before, execFileSync("git", ["show", `${ref}:prisma/schema.prisma`], { cwd: root }));
const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
const args = ["migrate", "diff", "--from-schema-datamodel", before, "--to-schema-datamodel", "prisma/schema.prisma", "--script"];
const result = spawnSync(process.execPath, [prisma, ...args], { cwd: root, stdio: "inherit" });
fs.rmSync(path.dirname(before), { recursive: true, force: true });
process.exit(result.status ?? 1);
