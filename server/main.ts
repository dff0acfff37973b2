// The server entry (docs/architecture.md, "How a request flows"): one process, one Node HTTP server, started by
// `npm start` (scripts/start.mjs), `npm run dev` (scripts/dev.mjs), Playwright, the system tests and the bench
// alike. `npm run build` bundles it into dist/server.mjs (scripts/build.mjs); `node dist/server.mjs` serves the
// built app, `--dev` Next.js's development server. It listens at once, answers while start-up waits for the
// database (server/http-server.ts), then serves the doors itself and hands everything else to Next.js.
import { getEnv, setNodeEnv } from "./env.ts";
import { createAppServer } from "./http-server.ts";
import { startServer } from "./startup.ts";

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  // Before Next.js and React load: they pick their build from it.
  setNodeEnv(dev ? "development" : "production");
  const env = getEnv();
  const app = createAppServer({ trustProxy: env.REPRISE_TRUST_PROXY });
  await new Promise<void>((resolve, reject) => app.server.once("error", reject).listen(env.PORT, resolve));
  const { default: next } = await import("next");
  const nextApp = next({ dev, dir: process.cwd(), httpServer: app.server, port: env.PORT, hostname: "localhost" });
  await Promise.all([nextApp.prepare(), startServer(() => app.databaseUnreachable())]);
  app.ready(nextApp.getRequestHandler());
  process.stdout.write(`Reprise is ready on http://localhost:${env.PORT}${dev ? " (development)" : ""}\n`);
}

main().catch((error: unknown) => {
  console.error("Reprise could not start:", error);
  process.exit(1);
});
