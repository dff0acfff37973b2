// A real HTTP server on 127.0.0.1 in front of route handlers, so official OTLP exporters (and the
// benchmark) can talk to them over the network without a Next.js build.
import http from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

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
export async function startHandlerServer(routes: Record<string, Handler>): Promise<TestServer> {
  const exchanges: Exchange[] = [];
  const server = http.createServer(async (req, res) => {
    try {
      const handler = routes[(req.url ?? "/").split("?")[0]];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no route"}');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers.set(key, value);
        else if (Array.isArray(value)) headers.set(key, value.join(", "));
      }
      const body = Buffer.concat(chunks);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
      });
      const response = await handler(request, { params: Promise.resolve({}) });
      const out = Buffer.from(await response.arrayBuffer());
      exchanges.push({ path: new URL(request.url).pathname, requestHeaders: headers, status: response.status, responseHeaders: response.headers, responseBody: out });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries())).end(out);
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
