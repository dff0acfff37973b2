// `npm run build`: the one build `npm start` trusts. It builds the Next.js app, bundles the server entry
// (server/main.ts → dist/server.mjs, node_modules left to Node so PGlite, Prisma and protobufjs load as they
// do in Next.js's own server bundles), and records the fingerprint of the sources it built, so `npm start`
// after it serves without building again (scripts/start.mjs builds only when the sources changed since).
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import { ensureGenerated } from "./ensure-generated.mjs";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const fingerprintFile = path.join(root, ".next", "reprise-build-fingerprint");
/** The server entry as `npm start`, `npm run dev`, the tests and the bench run it. */
export const serverEntry = path.join(root, "dist", "server.mjs");
const SOURCES = ["app", "components", "server", "prisma", "proto", "middleware.ts", "next.config.mjs", "package-lock.json", "postcss.config.mjs", "scripts/build.mjs"];

// Our lockfile omits registry URLs (npm config here), which Next.js mistakes for a broken lockfile
// and tries to "patch" over the network on every build.
process.env.NEXT_IGNORE_INCORRECT_LOCKFILE ??= "1";
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

/** Size and mtime of every source file: cheap, and changes whenever a file does. */
export function fingerprint() {
  const hash = crypto.createHash("sha256");
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (p.endsWith(`${path.sep}generated`)) return;
      for (const name of fs.readdirSync(p).sort()) walk(path.join(p, name));
    } else if (!/\.test\.tsx?$/.test(p)) {
      hash.update(`${path.relative(root, p)}:${st.size}:${st.mtimeMs}\n`);
    }
  };
  for (const s of SOURCES) walk(path.join(root, s));
  return hash.digest("hex");
}

/** True when the last build is of the current sources. */
export function isBuilt() {
  const built = fs.existsSync(fingerprintFile) ? fs.readFileSync(fingerprintFile, "utf8") : "";
  return built === fingerprint() && fs.existsSync(path.join(root, ".next", "BUILD_ID")) && fs.existsSync(serverEntry);
}

/** Bundles server/main.ts into dist/server.mjs (about a second); returns false if it failed. */
export async function bundleServer() {
  const esbuild = await import("esbuild");
  try {
    await esbuild.build({
      entryPoints: [path.join(root, "server", "main.ts")],
      outfile: serverEntry,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // Every package stays in node_modules, loaded by Node at run time: never a second copy of Next.js,
      // React, Prisma's runtime, PGlite or protobufjs inside the entry.
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "warning",
      // For the few CommonJS idioms (require) bundled code may use.
      banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    });
    return true;
  } catch {
    return false;
  }
}

/** Builds everything from the current sources and records their fingerprint. Returns false if a step failed. */
export async function build({ stdio = "inherit" } = {}) {
  ensureGenerated();
  const sources = fingerprint();
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio });
  if (result.status !== 0) return false;
  if (!(await bundleServer())) return false;
  fs.writeFileSync(fingerprintFile, sources);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  if (!(await build())) process.exit(1);
  console.error(`reprise: built in ${Math.round((Date.now() - started) / 1000)} s`);
}
