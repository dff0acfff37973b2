// Settings shared by playwright.config.ts (the web server) and the specs (sign-in, API seeding).
// The data directory is chosen once by the runner process and inherited by workers through the env.
import os from "node:os";
import path from "node:path";

process.env.REPRISE_E2E_DATA_DIR ??= path.join(os.tmpdir(), `reprise-e2e-${Date.now()}-${process.pid}`);
const port = Number(process.env.REPRISE_E2E_PORT ?? 3217);

export const E2E = {
  port,
  baseUrl: `http://127.0.0.1:${port}`,
  dataDir: process.env.REPRISE_E2E_DATA_DIR,
  orgName: "E2E Org",
  email: "e2e@example.com",
  password: "e2e-password-123",
  apiKey: "rp_e2e_0123456789abcdefghijklmnopqrstuvwxyz",
};
