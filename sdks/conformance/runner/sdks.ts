import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";

/** An SDK as its `sdks/<language>/reprise-sdk.json` describes it (sdks/conformance/PROTOCOL.md). */
export interface SdkManifest {
  /** Folder name under `sdks/`. */
  name: string;
  /** Absolute path of the SDK folder; the driver runs there. */
  dir: string;
  title: string;
  requires: string[];
  install?: string;
  env?: Record<string, string>;
  conformanceDriver?: string[];
  /** Optional: carriers per HTTP request in direct mode, when the SDK has a fixed value (the interface leaves it open). */
  carriersPerRequest?: number;
  /**
   * Optional: scenarios this SDK is known not to pass yet, each with why; they are reported as skipped with the
   * reason instead of failing `npm test`. `scenario` is a part of the scenario's name.
   */
  conformancePending?: Array<{ scenario: string; reason: string }>;
  /** Optional: name of the env variable that makes the driver break one rule on purpose (README, proving failures). */
  breakEnv?: string;
  /** Tools of `requires` not found on PATH. */
  missing: string[];
}

export const SDKS_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");

/** Every SDK with a manifest naming a conformance driver, sorted by folder; `REPRISE_CONFORMANCE_SDKS=a,b` narrows. */
export function discoverSdks(): SdkManifest[] {
  const only = (process.env.REPRISE_CONFORMANCE_SDKS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const out: SdkManifest[] = [];
  for (const name of fs.readdirSync(SDKS_DIR).sort()) {
    const file = path.join(SDKS_DIR, name, "reprise-sdk.json");
    if (!fs.existsSync(file)) continue;
    if (only.length > 0 && !only.includes(name)) continue;
    const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as Omit<SdkManifest, "name" | "dir" | "missing">;
    if (!manifest.conformanceDriver) continue;
    const requires = manifest.requires ?? [];
    const missing = requires.filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
    out.push({ ...manifest, requires, name, dir: path.join(SDKS_DIR, name), missing });
  }
  return out;
}
