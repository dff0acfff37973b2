// Runs `prisma generate` when the generated client is missing or older than the schema, and builds the
// TypeScript SDK when its build is missing or older than its sources, so that `npm start` and `npm test` work
// on a fresh clone even if npm skipped the postinstall script, and the server has the SDK it hands out
// (docs/sdk-downloads.md).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const schema = path.join(root, "prisma", "schema.prisma");
const generated = path.join(root, "server", "generated", "prisma", "client.ts");
const sdk = path.join(root, "sdks", "typescript");
const sdkStamp = path.join(sdk, "dist", ".build-fingerprint");

export function ensureGenerated() {
  const stale =
    !fs.existsSync(generated) || fs.statSync(generated).mtimeMs < fs.statSync(schema).mtimeMs;
  if (stale) {
    const result = spawnSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), "generate"], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (result.status !== 0) throw new Error("prisma generate failed");
  }
  ensureSdkBuilt();
}

/** Size and mtime of every file the SDK's build reads (its tests excepted): cheap, and changes with any of them. */
function sdkFingerprint() {
  const hash = crypto.createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    else if (!/\.test\.tsx?$/.test(p)) hash.update(`${path.relative(sdk, p)}:${st.size}:${st.mtimeMs}\n`);
  };
  for (const s of ["src", "package.json", "tsconfig.json", "tsconfig.build.json", "tsconfig.cjs.json", "scripts"]) walk(path.join(sdk, s));
  return hash.digest("hex");
}

/** Builds sdks/typescript/dist (ESM, CommonJS, types) unless it was built from the current sources. */
export function ensureSdkBuilt() {
  if (!fs.existsSync(path.join(sdk, "package.json"))) return;
  const current = sdkFingerprint();
  if (fs.existsSync(sdkStamp) && fs.readFileSync(sdkStamp, "utf8") === current) return;
  console.error("reprise: building the TypeScript SDK (sdks/typescript/dist)…");
  const result = spawnSync(process.execPath, [path.join(sdk, "scripts", "build.mjs")], { cwd: sdk, stdio: ["ignore", 2, "inherit"] });
  if (result.status !== 0) throw new Error("the TypeScript SDK's build failed (npm run build -w sdks/typescript)");
  fs.writeFileSync(sdkStamp, current);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureGenerated();
