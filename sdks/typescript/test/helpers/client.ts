import { afterEach } from "vitest";
import { Reprise } from "../../src/client.js";
import type { RepriseOptions } from "../../src/config.js";
import { resetWarnOnceForTests } from "../../src/logger.js";
import { captureLogger, type FakeServer, type Handler, startFakeServer } from "./fake-server.js";

const clients: Reprise[] = [];
const servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close(2_000)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
  resetWarnOnceForTests();
});

/** Routes requests by "METHOD path-prefix"; unmatched requests get `{}`. */
export function router(routes: Record<string, Handler>): Handler {
  return (request) => {
    const path = request.path.split("?")[0] ?? "";
    for (const [key, handler] of Object.entries(routes)) {
      const [method, prefix] = key.split(" ");
      if (request.method === method && prefix !== undefined && path.startsWith(prefix)) return handler(request);
    }
    return { body: {} };
  };
}

/** Starts a fake Reprise and a client pointed at it (sim plan off unless asked for). */
export async function clientAndServer(handler?: Handler, options: RepriseOptions = {}) {
  const server = await startFakeServer(handler);
  servers.push(server);
  const { lines, logger } = captureLogger();
  const client = new Reprise({
    apiKey: "rp_test",
    serviceUrl: server.url,
    disableSimPlan: true,
    logger,
    ...options,
    transport: { scheduledDelayMillis: 60_000, ...options.transport },
  });
  clients.push(client);
  return { client, server, warnings: lines };
}

/** Tracks an extra client for cleanup. */
export function track(client: Reprise): Reprise {
  clients.push(client);
  return client;
}
