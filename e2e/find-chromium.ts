// The browser for Playwright (the e2e journeys and the ingestion benchmark's console check), first found wins:
// REPRISE_CHROMIUM_PATH; Playwright's own download (`npx playwright install chromium`); a system Chromium or
// Chrome; else the headless Chromium shipped by the `@sparticuz/chromium` npm package (a devDependency,
// unpacked into the temp directory on first use), so `npm test` needs nothing installed by hand.
// REPRISE_E2E_BROWSER=npm skips straight to the npm one (to test it on a machine that has the others).
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

function playwrightOwn(): string {
  try {
    return chromium.executablePath();
  } catch {
    return ""; // no build of Playwright's browser for this platform
  }
}

export async function findChromium(): Promise<string> {
  const configured = process.env.REPRISE_CHROMIUM_PATH ?? process.env.CHROMIUM_PATH;
  if (configured) return configured;
  if (process.env.REPRISE_E2E_BROWSER !== "npm") {
    const candidates = [
      playwrightOwn(),
      "/usr/bin/chromium",
      "/usr/bin/chromium-browser",
      "/usr/bin/google-chrome",
      "/usr/bin/google-chrome-stable",
    ];
    const found = candidates.find((candidate) => candidate && existsSync(candidate));
    if (found) return found;
  }
  const npmChromium = (await import("@sparticuz/chromium")).default;
  return npmChromium.executablePath();
}
