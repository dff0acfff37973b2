// The TypeScript SDK as npm installs it: a gzipped tar whose files sit under `package/`, as `npm pack` makes
// it: package.json, the README and the built dist/ (ESM, CommonJS, types).
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../errors.ts";
import { gzip, tar } from "./archives.ts";
import { listFiles, sdkDir, under } from "./sources.ts";

/** Written next to the build by scripts/ensure-generated.mjs; not part of the package. */
const BUILD_STAMP = ".build-fingerprint";

/** The file name npm pack gives the package: `reprise-sdk-<version>.tgz` for `@reprise/sdk`. */
export const npmTarballName = (version: string): string => `reprise-sdk-${version}.tgz`;

export function buildNpmTarball(): Buffer {
  const dir = sdkDir("typescript");
  if (!fs.existsSync(path.join(dir, "dist", "esm", "index.js")) || !fs.existsSync(path.join(dir, "dist", "cjs", "index.js"))) {
    throw new AppError(
      "service_unavailable",
      "The TypeScript SDK is not built on this server: run `npm run build -w sdks/typescript` (npm start and npm run build do it) and ask again.",
    );
  }
  const files = [
    ...listFiles(dir, (rel) => /^(package\.json|README\.md|LICENSE)$/.test(rel), () => true),
    ...under("dist", listFiles(path.join(dir, "dist"), (rel) => rel !== BUILD_STAMP)),
  ];
  return gzip(tar(under("package", files)));
}
