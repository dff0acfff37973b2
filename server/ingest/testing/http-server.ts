// A real HTTP server on 127.0.0.1 in front of route handlers, so official OTLP exporters can talk to them over
// the network without a Next.js build: the server entry (server/http-server.ts) serves its doors the same way.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_BODY_BYTES } from "../../http/body.ts";
import { toWebRequest, writeWebResponse, type TRouteFunction } from "../../http/node-bridge.ts";

export interface Exchange {
  path: string;
  requestHeaders: Headers;
  status: number;
  responseHeaders: Headers;
  responseBody: Buffer;
}

export interface TestServer {
  url: string;
  /** Every request answered so far, oldest first (tests read responses real clients do not expose). */
  exchanges: Exchange[];
  close(): Promise<void>;
}

/** Routes: exact path → handler (POST). */
export async function startHandlerServer(routes: Record<string, TRouteFunction>): Promise<TestServer> {
  const exchanges: Exchange[] = [];
  const server = http.createServer(async (req, res) => {
    try {
      const handler = routes[(req.url ?? "/").split("?")[0]];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no route"}');
        return;
      }
      // The adapters the server entry serves ingestion's OTLP doors with, the body read off Node's stream.
      const request = toWebRequest(req, MAX_BODY_BYTES);
      const response = await handler(request, { params: Promise.resolve({}) });
      const out = await writeWebResponse(response, res);
      exchanges.push({ path: new URL(request.url).pathname, requestHeaders: request.headers, status: response.status, responseHeaders: response.headers, responseBody: out });
    } catch (error) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
    }
  });
  // Idle keep-alive sockets stay open for the whole test: a test that blocks the event loop for seconds (PGlite
  // starting the job queue) must not find the socket fetch reuses closed under it (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
