// `npm run dev`: the same server entry as `npm start` (server/main.ts, bundled into dist/server.mjs), serving
// Next.js's development server: pages and routes under app/ reload on save. The entry itself (the doors,
// start-up, the workers) is bundled when this starts: after changing that code, restart `npm run dev`.
import { spawn } from "node:child_process";
import { bundleServer, root } from "./build.mjs";
import { ensureGenerated } from "./ensure-generated.mjs";
import { serverCommand, serverEnv } from "./start.mjs";

ensureGenerated();
if (!(await bundleServer())) process.exit(1);
const [node, args] = serverCommand();
const child = spawn(node, [...args, "--dev", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...serverEnv(), NODE_ENV: "development", PORT: process.env.PORT || "3000" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
